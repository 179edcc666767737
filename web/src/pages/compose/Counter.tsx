import { countText } from '../../compose/count.ts';
import type { TextRule } from '../../compose/count.ts';
import { t } from '../../i18n/index.ts';

/** A network's live count of the text against its limit, in the unit the network counts. */
export function Counter({
  name,
  text,
  rule,
  kind = 'text',
}: {
  name: string;
  text: string;
  rule: TextRule | null;
  /** What is counted: the post's text, or its first comment. */
  kind?: 'text' | 'first-comment';
}) {
  if (!rule) return null;
  const c = countText(text, rule);
  const unit = t.compose.units[c.unit] ?? c.unit;
  return (
    <span
      className={`counter${c.over ? ' counter-over' : c.remaining < c.max * 0.1 ? ' counter-near' : ''}`}
      {...(kind === 'text' ? { 'data-network-counter': name } : { 'data-first-comment-counter': name })}
    >
      <span className="counter-name">{name}</span>{' '}
      <span title={unit}>
        {t.compose.counter(c.used, c.max)} <span className="visually-hidden">{unit}</span>
      </span>
      {c.maxBytes !== undefined && <span className="muted"> · {t.compose.bytes(c.bytes, c.maxBytes)}</span>}
      {c.over && <strong> · {t.compose.overBy(Math.max(c.used - c.max, c.bytes - (c.maxBytes ?? c.bytes)))}</strong>}
    </span>
  );
}

// The composer's first comment: posted under the post once the network published it (a reply in the post's thread
// where that is the network's form). The common one on the "All networks" tab, a network's own on its tab; each
// network's live counter by its comment limit (GET /unified/platforms: first_comment), and a network that takes none
// says so (its field disabled, and it is left out of the common one).
import type { Dispatch, SetStateAction } from 'react';
import { type PlatformInfo, toTextRule } from '../../api/platforms.ts';
import { type ComposerState, firstCommentFor } from '../../compose/post.ts';
import { t } from '../../i18n/index.ts';
import { Field } from '../../ui/Field.tsx';
import { Counter } from './Counter.tsx';

export interface FirstCommentProps {
  state: ComposerState;
  update: Dispatch<SetStateAction<ComposerState>>;
  /** The text tab shown: 'all' or a network's slug. */
  tab: string;
  chosen: string[];
  nameOf: (slug: string) => string;
  rules: Record<string, PlatformInfo | undefined>;
  /** The API's message for a network's first comment field (or the common one). */
  error: (network: string) => string | undefined;
}

export function FirstComment({ state: s, update, tab, chosen, nameOf, rules, error }: FirstCommentProps) {
  const takes = (n: string) => Boolean(rules[n]?.first_comment);
  const counter = (n: string) => (
    <Counter
      key={n}
      kind="first-comment"
      name={nameOf(n)}
      text={firstCommentFor(s, n)}
      rule={toTextRule(rules[n]?.first_comment ?? null)}
    />
  );
  if (tab !== 'all') {
    const name = nameOf(tab);
    if (!takes(tab))
      return (
        <Field label={t.compose.firstComment.on(name)} hint={t.compose.firstComment.none(name)}>
          {(c) => <textarea {...c} rows={2} disabled value="" />}
        </Field>
      );
    return (
      <div className="first-comment">
        <Field label={t.compose.firstComment.on(name)} hint={t.compose.firstComment.ownHint} error={error(tab)}>
          {(c) => (
            <textarea
              {...c}
              rows={2}
              placeholder={s.firstComment}
              value={s.firstCommentOverrides[tab] ?? ''}
              onChange={(e) =>
                update((x) => ({ ...x, firstCommentOverrides: { ...x.firstCommentOverrides, [tab]: e.target.value } }))
              }
            />
          )}
        </Field>
        <p className="counters" aria-live="polite">
          {counter(tab)}
        </p>
      </div>
    );
  }
  const taking = chosen.filter(takes);
  const none = chosen.filter((n) => !takes(n)).map(nameOf);
  const replies = taking.filter((n) => rules[n]?.first_comment?.form === 'reply').map(nameOf);
  return (
    <div className="first-comment">
      <Field
        label={t.compose.firstComment.label}
        hint={
          <>
            {t.compose.firstComment.hint}
            {replies.length > 0 && ` ${t.compose.firstComment.replies(replies.join(', '))}`}
          </>
        }
        error={error('all')}
      >
        {(c) => (
          <textarea
            {...c}
            name="first_comment"
            rows={2}
            value={s.firstComment}
            onChange={(e) => update((x) => ({ ...x, firstComment: e.target.value }))}
          />
        )}
      </Field>
      {s.firstComment.trim() !== '' && taking.length > 0 && (
        <p className="counters" aria-live="polite">
          {taking.map(counter)}
        </p>
      )}
      {none.length > 0 && (
        <p className="field-hint first-comment-none">{t.compose.firstComment.skipped(none.join(', '))}</p>
      )}
    </div>
  );
}

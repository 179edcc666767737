// A button that copies a text to the clipboard and says so (to screen readers too).
import { useState } from 'react';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';

export function CopyButton({ text, label = t.keys.copy }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <span className="copy">
      <Button
        variant="secondary"
        onClick={() =>
          navigator.clipboard.writeText(text).then(
            () => setState('copied'),
            () => setState('failed'),
          )
        }
      >
        {label}
      </Button>
      <span className="copy-status" role="status">
        {state === 'copied' ? t.keys.copied : state === 'failed' ? t.keys.copyFailed : ''}
      </span>
    </span>
  );
}

/** A block of text to paste elsewhere, with its copy button. */
export function Snippet({ label, text }: { label: string; text: string }) {
  return (
    <div className="snippet">
      <div className="snippet-head">
        <span>{label}</span>
        <CopyButton text={text} label={t.keys.copyThing(label)} />
      </div>
      <pre>
        <code>{text}</code>
      </pre>
    </div>
  );
}

/** A secret shown once: what to do with it, the secret (named for screen readers) and its copy button. */
export function OnceSecret({
  note,
  label,
  copyLabel,
  secret,
}: {
  note: string;
  label: string;
  copyLabel: string;
  secret: string;
}) {
  return (
    <>
      <p className="page-note" role="note">
        {note}
      </p>
      <div className="secret-row">
        <span className="visually-hidden">{label}</span>
        <code className="secret">{secret}</code>
        <CopyButton text={secret} label={copyLabel} />
      </div>
    </>
  );
}

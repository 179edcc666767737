// A button for what cannot be undone (delete, revoke, remove): the first press asks, a second button confirms, and
// Cancel (or the confirmation's success) puts it back.
import { useState } from 'react';
import { t } from '../i18n/index.ts';
import { Button } from './Button.tsx';

export interface ConfirmButtonProps {
  label: string;
  /** The confirming button's text, saying what will happen. */
  confirmLabel: string;
  /** The first button's accessible name when `label` alone is ambiguous (e.g. "Revoke" in a table row). */
  ariaLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
}

export function ConfirmButton({ label, confirmLabel, ariaLabel, busy = false, onConfirm }: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <Button variant="danger" aria-label={ariaLabel} onClick={() => setAsking(true)}>
        {label}
      </Button>
    );
  return (
    <span className="row">
      <Button variant="danger" busy={busy} onClick={onConfirm}>
        {confirmLabel}
      </Button>
      <Button onClick={() => setAsking(false)}>{t.common.cancel}</Button>
    </span>
  );
}

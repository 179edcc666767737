// A modal dialog on the native <dialog>: it traps focus, closes on Escape and gives focus back when it closes.
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { t } from '../i18n/index.ts';
import { Button } from './Button.tsx';

export interface DialogProps {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  /** The buttons at the bottom; a Close button when absent. */
  actions?: ReactNode;
}

export function Dialog({ open, title, onClose, children, actions }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <h2 id={titleId} className="dialog-title">
            {title}
          </h2>
          <div className="dialog-body">{children}</div>
          <div className="dialog-actions">{actions ?? <Button onClick={onClose}>{t.common.close}</Button>}</div>
        </>
      )}
    </dialog>
  );
}

// The pieces the account pages share: the email and password fields, and a form submit that stays in the page.
import type { FormEvent } from 'react';
import { fieldError } from '../../api/errors.ts';
import { t } from '../../i18n/index.ts';
import { TextField } from '../../ui/Field.tsx';

/** A form's onSubmit that runs `run` instead of navigating. */
export const submitWith = (run: () => void) => (e: FormEvent) => {
  e.preventDefault();
  run();
};

interface Props {
  value: string;
  onChange: (value: string) => void;
  /** The failed request, whose error for this field shows beside it. */
  error: unknown;
}

export function EmailField({ value, onChange, error }: Props) {
  return (
    <TextField
      label={t.auth.email}
      type="email"
      name="email"
      autoComplete="email"
      required
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={fieldError(error, 'email')}
    />
  );
}

/** A password; `name` is the body field it is sent as, `fresh` for a new one (hint, no autofill of the old). */
export function PasswordField({
  value,
  onChange,
  error,
  name = 'password',
  fresh = false,
  label = t.auth.password,
}: Props & { name?: string; fresh?: boolean; label?: string }) {
  return (
    <TextField
      label={label}
      type="password"
      name={name}
      autoComplete={fresh ? 'new-password' : 'current-password'}
      required
      hint={fresh ? t.auth.passwordHint : undefined}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={fieldError(error, name)}
    />
  );
}

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, must } from '../../api/client.ts';
import { fieldError } from '../../api/errors.ts';
import { nextPath } from '../../app/guards.tsx';
import { useSessionStarted } from '../../app/session.tsx';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { TextField } from '../../ui/Field.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { ErrorText } from '../../ui/States.tsx';
import { EmailField, PasswordField, submitWith } from './fields.tsx';

/** The invitation a sign-up joins, when it came from an invitation link (/accept-invitation?token=…). */
function invitationToken(next: string): string | undefined {
  const url = new URL(next, 'http://app');
  return url.pathname === '/accept-invitation' ? (url.searchParams.get('token') ?? undefined) : undefined;
}

export default function Signup() {
  const [form, setForm] = useState({ email: '', password: '', full_name: '', workspace_name: '' });
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const sessionStarted = useSessionStarted();
  const next = nextPath(search);
  const invitation = invitationToken(next);
  const signup = useMutation({
    mutationFn: () =>
      must(
        api.POST('/auth/signup', {
          body: {
            email: form.email,
            password: form.password,
            ...(form.full_name.trim() ? { full_name: form.full_name.trim() } : {}),
            ...(form.workspace_name.trim() ? { workspace_name: form.workspace_name.trim() } : {}),
            ...(invitation ? { invitation_token: invitation } : {}),
          },
        }),
      ),
    onSuccess: async () => {
      await sessionStarted();
      navigate(invitation ? '/compose' : next, { replace: true });
    },
  });
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));
  const submit = submitWith(() => signup.mutate());
  return (
    <form className="card auth-card" onSubmit={submit} noValidate>
      <PageHeader title={t.auth.signupTitle} />
      <EmailField value={form.email} onChange={(v) => setForm((f) => ({ ...f, email: v }))} error={signup.error} />
      <PasswordField
        fresh
        value={form.password}
        onChange={(v) => setForm((f) => ({ ...f, password: v }))}
        error={signup.error}
      />
      <TextField
        label={`${t.auth.fullName} ${t.auth.optional}`}
        name="full_name"
        autoComplete="name"
        value={form.full_name}
        onChange={set('full_name')}
        error={fieldError(signup.error, 'full_name')}
      />
      {!invitation && (
        <TextField
          label={`${t.auth.workspaceName} ${t.auth.optional}`}
          name="workspace_name"
          autoComplete="organization"
          value={form.workspace_name}
          onChange={set('workspace_name')}
          error={fieldError(signup.error, 'workspace_name')}
        />
      )}
      <ErrorText error={signup.error} fields={['email', 'password', 'full_name', 'workspace_name']} />
      <Button type="submit" variant="primary" busy={signup.isPending}>
        {t.auth.signupSubmit}
      </Button>
      <p className="auth-links">
        {t.auth.haveAccount} <Link to={`/login${search.size ? `?${search}` : ''}`}>{t.auth.loginLink}</Link>
      </p>
    </form>
  );
}

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, must } from '../../api/client.ts';
import { nextPath } from '../../app/guards.tsx';
import { useSessionStarted } from '../../app/session.tsx';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { ErrorText } from '../../ui/States.tsx';
import { EmailField, PasswordField, submitWith } from './fields.tsx';

export default function Login() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const sessionStarted = useSessionStarted();
  const login = useMutation({
    mutationFn: () => must(api.POST('/auth/login', { body: { email, password } })),
    onSuccess: async () => {
      await sessionStarted();
      navigate(nextPath(search), { replace: true });
    },
  });
  const submit = submitWith(() => login.mutate());
  return (
    <form className="card auth-card" onSubmit={submit} noValidate>
      <PageHeader title={t.auth.loginTitle} />
      <EmailField value={email} onChange={setEmail} error={login.error} />
      <PasswordField value={password} onChange={setPassword} error={login.error} />
      <ErrorText error={login.error} fields={['email', 'password']} />
      <Button type="submit" variant="primary" busy={login.isPending}>
        {t.auth.loginSubmit}
      </Button>
      <p className="auth-links">
        <Link to="/forgot-password">{t.auth.forgotLink}</Link>
      </p>
      <p className="auth-links">
        {t.auth.noAccount} <Link to={`/signup${search.size ? `?${search}` : ''}`}>{t.auth.signupLink}</Link>
      </p>
    </form>
  );
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, must, resetCsrf } from '../../api/client.ts';
import { fieldError } from '../../api/errors.ts';
import { nextPath } from '../../app/guards.tsx';
import { meKey, workspacesKey } from '../../app/session.tsx';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { TextField } from '../../ui/Field.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { ErrorText } from '../../ui/States.tsx';

export default function Login() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const login = useMutation({
    mutationFn: () => must(api.POST('/auth/login', { body: { email, password } })),
    onSuccess: async () => {
      resetCsrf();
      await queryClient.invalidateQueries({ queryKey: workspacesKey });
      await queryClient.refetchQueries({ queryKey: meKey });
      navigate(nextPath(search), { replace: true });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    login.mutate();
  };
  return (
    <form className="card auth-card" onSubmit={submit} noValidate>
      <PageHeader title={t.auth.loginTitle} />
      <TextField
        label={t.auth.email}
        type="email"
        name="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={fieldError(login.error, 'email')}
      />
      <TextField
        label={t.auth.password}
        type="password"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={fieldError(login.error, 'password')}
      />
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

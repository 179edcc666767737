import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, must } from '../../api/client.ts';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { ErrorText, QueryView } from '../../ui/States.tsx';
import { PasswordField, submitWith } from './fields.tsx';

export default function ResetPassword() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const [password, setPassword] = useState('');
  const check = useQuery({
    queryKey: ['reset-token', token],
    queryFn: () => must(api.GET('/auth/verify-reset-token', { params: { query: { token } } })),
    enabled: Boolean(token),
  });
  const reset = useMutation({
    mutationFn: () => must(api.POST('/auth/reset-password', { body: { token, new_password: password } })),
  });
  const submit = submitWith(() => reset.mutate());
  const askAgain = (
    <p className="auth-links">
      <Link to="/forgot-password">{t.auth.askAgain}</Link>
    </p>
  );
  return (
    <div className="card auth-card">
      <PageHeader title={t.auth.resetTitle} />
      {!token ? (
        <>
          <p role="alert">{t.auth.resetMissing}</p>
          {askAgain}
        </>
      ) : reset.isSuccess ? (
        <>
          <p role="status">{t.auth.resetDone}</p>
          <p className="auth-links">
            <Link to="/login">{t.auth.loginLink}</Link>
          </p>
        </>
      ) : (
        <QueryView query={check}>
          {({ valid }) =>
            valid ? (
              <form onSubmit={submit} noValidate className="stack">
                <PasswordField
                  fresh
                  name="new_password"
                  label={t.auth.newPassword}
                  value={password}
                  onChange={setPassword}
                  error={reset.error}
                />
                <ErrorText error={reset.error} fields={['new_password']} />
                <Button type="submit" variant="primary" busy={reset.isPending}>
                  {t.auth.resetSubmit}
                </Button>
              </form>
            ) : (
              <>
                <p role="alert">{t.auth.resetInvalid}</p>
                {askAgain}
              </>
            )
          }
        </QueryView>
      )}
    </div>
  );
}

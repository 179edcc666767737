import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, must } from '../../api/client.ts';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { ErrorText } from '../../ui/States.tsx';
import { EmailField, submitWith } from './fields.tsx';

export default function ForgotPassword() {
  const [email, setEmail] = useState('');
  const request = useMutation({
    mutationFn: () => must(api.POST('/auth/forgot-password', { body: { email } })),
  });
  const submit = submitWith(() => request.mutate());
  return (
    <form className="card auth-card" onSubmit={submit} noValidate>
      <PageHeader title={t.auth.forgotTitle} />
      {request.isSuccess ? (
        <p role="status">{t.auth.forgotSent}</p>
      ) : (
        <>
          <p>{t.auth.forgotIntro}</p>
          <EmailField value={email} onChange={setEmail} error={request.error} />
          <ErrorText error={request.error} fields={['email']} />
          <Button type="submit" variant="primary" busy={request.isPending}>
            {t.auth.forgotSubmit}
          </Button>
        </>
      )}
      <p className="auth-links">
        <Link to="/login">{t.auth.loginLink}</Link>
      </p>
    </form>
  );
}

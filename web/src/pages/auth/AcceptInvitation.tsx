import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, must, setWorkspaceId } from '../../api/client.ts';
import { useMe, workspacesKey } from '../../app/session.tsx';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { ErrorText, Loading } from '../../ui/States.tsx';

export default function AcceptInvitation() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const me = useMe();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const accept = useMutation({
    mutationFn: () => must(api.POST('/invitations/accept', { body: { token } })),
    onSuccess: async (res) => {
      setWorkspaceId(res.workspace.id);
      await queryClient.invalidateQueries({ queryKey: workspacesKey });
    },
  });
  const here = `/accept-invitation?token=${encodeURIComponent(token)}`;
  const body = () => {
    if (!token) return <p role="alert">{t.auth.inviteMissing}</p>;
    if (me.isPending) return <Loading />;
    if (accept.isSuccess)
      return (
        <>
          <p role="status">{t.auth.inviteJoined(accept.data.workspace.name)}</p>
          <Button variant="primary" onClick={() => navigate('/compose')}>
            {t.auth.openWorkspace}
          </Button>
        </>
      );
    if (!me.data)
      return (
        <>
          <p>{t.auth.inviteLoginFirst}</p>
          <p className="auth-links">
            <Link to={`/login?next=${encodeURIComponent(here)}`}>{t.auth.loginLink}</Link>
            {' · '}
            <Link to={`/signup?next=${encodeURIComponent(here)}`}>{t.auth.signupLink}</Link>
          </p>
        </>
      );
    return (
      <>
        <ErrorText error={accept.error} />
        <Button variant="primary" busy={accept.isPending} onClick={() => accept.mutate()}>
          {t.auth.inviteAccept}
        </Button>
      </>
    );
  };
  return (
    <div className="card auth-card">
      <PageHeader title={t.auth.inviteTitle} />
      <p>{t.auth.inviteIntro}</p>
      {body()}
    </div>
  );
}

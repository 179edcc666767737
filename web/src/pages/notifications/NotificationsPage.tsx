// Notifications: the workspace's events, newest first, each with a link to the post or connection it names (page by
// page with the feed's cursor), and which event types are mailed to the member signed in.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api, must } from '../../api/client.ts';
import { useCursorPages } from '../../api/cursor.ts';
import { networkName } from '../../api/networks.ts';
import { useWorkspace } from '../../app/session.tsx';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { CheckGroup } from '../../ui/CheckGroup.tsx';
import { DataTable } from '../../ui/DataTable.tsx';
import { LoadMore } from '../../ui/LoadMore.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { Empty, ErrorText, QueryView } from '../../ui/States.tsx';
import { useWorkspaceTime } from '../../ui/useWorkspaceTime.ts';
import '../../styles/pages.css';
import './events.css';
import { eventLink, eventTypeName } from './events.ts';

const PAGE = 50;

function EventFeed() {
  const { workspace } = useWorkspace();
  const time = useWorkspaceTime();
  const feed = useCursorPages(['events', workspace.id], (cursor) =>
    must(api.GET('/events', { params: { query: { limit: PAGE, ...(cursor ? { cursor } : {}) } } })),
  );
  return (
    <QueryView query={feed}>
      {(data) => {
        const events = data.pages.flatMap((p) => p.events);
        if (events.length === 0) return <Empty title={t.notifications.feedEmpty} />;
        return (
          <>
            <DataTable
              caption={t.notifications.feedTitle}
              columns={[t.notifications.type, t.notifications.time, t.notifications.network, t.notifications.subject]}
            >
              {events.map((e) => {
                const link = eventLink(e);
                return (
                  <tr key={e.id} data-type={e.type}>
                    <th scope="row">{eventTypeName(e.type)}</th>
                    <td>
                      <time dateTime={e.occurred_at}>{time.dateTime(e.occurred_at)}</time>
                    </td>
                    <td>{e.platform ? networkName(e.platform) : '—'}</td>
                    <td>
                      {link ? (
                        <Link to={link.href}>
                          {link.kind === 'post' ? t.notifications.viewPost : t.notifications.viewConnection}
                        </Link>
                      ) : (
                        '—'
                      )}
                    </td>
                  </tr>
                );
              })}
            </DataTable>
            <LoadMore pages={feed} done={t.notifications.noMore} />
          </>
        );
      }}
    </QueryView>
  );
}

function MailPreferences() {
  const { workspace } = useWorkspace();
  const queryClient = useQueryClient();
  const key = ['notification-preferences', workspace.id];
  const prefs = useQuery({ queryKey: key, queryFn: () => must(api.GET('/notifications/preferences')) });
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [saved, setSaved] = useState(false);
  const current = prefs.data?.preferences as Record<string, boolean> | undefined;
  useEffect(() => {
    if (current) setChosen(Object.keys(current).filter((k) => current[k]));
  }, [current]);
  const save = useMutation({
    mutationFn: (selected: string[]) =>
      must(
        api.PUT('/notifications/preferences', {
          body: { preferences: Object.fromEntries(Object.keys(current ?? {}).map((k) => [k, selected.includes(k)])) },
        }),
      ),
    onSuccess: (data) => {
      queryClient.setQueryData(key, data);
      setSaved(true);
    },
  });
  return (
    <QueryView query={prefs}>
      {(data) => (
        <form
          className="card form-card"
          aria-labelledby="prefs-heading"
          onSubmit={(e) => {
            e.preventDefault();
            setSaved(false);
            if (chosen) save.mutate(chosen);
          }}
        >
          <h2 id="prefs-heading">{t.notifications.prefsTitle}</h2>
          <p className="hint">{t.notifications.prefsHint(data.digest_minutes)}</p>
          <CheckGroup
            legend={<span className="visually-hidden">{t.notifications.prefsTitle}</span>}
            className="check-grid"
            options={Object.keys(data.preferences).map((k) => ({ value: k, label: eventTypeName(k) }))}
            selected={chosen ?? []}
            onChange={(next) => {
              setSaved(false);
              setChosen(next);
            }}
          />
          <ErrorText error={save.error} />
          <p role="status" className="muted">
            {saved ? t.notifications.saved : ''}
          </p>
          <Button type="submit" variant="primary" busy={save.isPending} disabled={!chosen}>
            {t.notifications.save}
          </Button>
        </form>
      )}
    </QueryView>
  );
}

export default function NotificationsPage() {
  return (
    <>
      <PageHeader title={t.nav.notifications} />
      <p className="lead">{t.notifications.intro}</p>
      <div className="keys-layout">
        <MailPreferences />
        <section aria-labelledby="feed-heading">
          <h2 id="feed-heading">{t.notifications.feedTitle}</h2>
          <EventFeed />
        </section>
      </div>
    </>
  );
}

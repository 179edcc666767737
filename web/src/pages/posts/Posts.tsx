// Posts: the history of everything published or queued, one row per network target: status, time, the link, the
// network's error, attempts; delete a published post where the network allows it (the API says when it does not),
// retry a failed one, cancel a scheduled one; a post's timeline (every attempt per network), opened from its row or
// from `?post=<id>` (the links of the events feed and of notification mails).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, must } from '../../api/client.ts';
import { historyKey, retryPost, useHistory } from '../../api/history.ts';
import { networkName } from '../../api/networks.ts';
import { useWorkspace } from '../../app/session.tsx';
import type { CalendarItem } from '../../calendar/items.ts';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { Empty, ErrorText, QueryView } from '../../ui/States.tsx';
import './posts.css';
import { ExportButton } from './ExportButton.tsx';
import { TimelineDialog } from './Timeline.tsx';

const BADGE: Record<string, string> = {
  published: 'badge-success',
  failed: 'badge-danger',
  scheduled: 'badge-info',
  publishing: 'badge-warning',
};

/** Where a published post lives, as DELETE /unified/posts/{id} asks for it. */
function deleteQuery(item: CalendarItem): { platform: string; page_id?: string; organization_id?: string } {
  if (!item.pageId) return { platform: item.platform };
  return item.platform === 'linkedin'
    ? { platform: item.platform, organization_id: item.pageId }
    : { platform: item.platform, page_id: item.pageId };
}

export default function Posts() {
  const { workspace } = useWorkspace();
  const history = useHistory();
  const queryClient = useQueryClient();
  const [network, setNetwork] = useState('');
  const [status, setStatus] = useState('');
  const [deleting, setDeleting] = useState<CalendarItem>();
  const [notice, setNotice] = useState<string>();
  const ids = useId();
  const [params, setParams] = useSearchParams();
  const story = params.get('post');
  const showStory = (id: string | null) =>
    setParams(
      (p) => {
        if (id) p.set('post', id);
        else p.delete('post');
        return p;
      },
      { replace: !id },
    );
  const refresh = () => queryClient.invalidateQueries({ queryKey: historyKey(workspace.id) });
  const fmt = useMemo(
    () =>
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: workspace.time_zone }),
    [workspace.time_zone],
  );

  const remove = useMutation({
    mutationFn: (item: CalendarItem) =>
      must(
        api.DELETE('/unified/posts/{post_id}', {
          params: { path: { post_id: item.publishedPostId! }, query: deleteQuery(item) },
        }),
      ),
    onSuccess: async () => {
      setDeleting(undefined);
      setNotice(t.posts.deleted);
      await refresh();
    },
  });
  const retry = useMutation({
    mutationFn: (item: CalendarItem) => retryPost(item.queueId!),
    onSuccess: async (message) => {
      setNotice(message === null ? t.posts.nothingRetried : message || t.posts.retried);
      await refresh();
    },
    onError: () => refresh(),
  });
  const cancel = useMutation({
    mutationFn: (item: CalendarItem) =>
      must(api.DELETE('/unified/scheduled-posts/{id}', { params: { path: { id: item.queueId! } } })),
    onSuccess: async () => {
      setNotice(t.posts.cancelled);
      await refresh();
    },
  });

  return (
    <>
      <PageHeader title={t.nav.posts}>
        <Link className="btn" to="/import">
          {t.posts.import}
        </Link>
        <ExportButton onError={setNotice} />
      </PageHeader>
      <p className="muted">{t.posts.intro}</p>
      {notice && (
        <p className="notice notice-success" role="status">
          {notice}
        </p>
      )}
      <ErrorText error={retry.error ?? cancel.error} />
      <QueryView query={history}>
        {(d) => {
          const all = d.items
            .filter((i) => i.source !== 'draft')
            .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
          if (!all.length) return <Empty title={t.posts.empty} />;
          const networks = [...new Set(all.map((i) => i.platform))].sort();
          const statuses = [...new Set(all.map((i) => i.status))].sort();
          const rows = all.filter((i) => (!network || i.platform === network) && (!status || i.status === status));
          return (
            <>
              <div className="posts-filters row">
                <label htmlFor={`${ids}-network`}>{t.posts.network}</label>
                <select id={`${ids}-network`} value={network} onChange={(e) => setNetwork(e.target.value)}>
                  <option value="">{t.posts.allNetworks}</option>
                  {networks.map((n) => (
                    <option key={n} value={n}>
                      {networkName(n)}
                    </option>
                  ))}
                </select>
                <label htmlFor={`${ids}-status`}>{t.posts.status}</label>
                <select id={`${ids}-status`} value={status} onChange={(e) => setStatus(e.target.value)}>
                  <option value="">{t.posts.allStatuses}</option>
                  {statuses.map((s) => (
                    <option key={s} value={s}>
                      {t.calendar.statuses[s] ?? s}
                    </option>
                  ))}
                </select>
              </div>
              {rows.length === 0 ? (
                <Empty title={t.posts.noMatch} />
              ) : (
                <div className="table-wrap">
                  <table className="table posts-table">
                    <caption className="visually-hidden">{t.nav.posts}</caption>
                    <thead>
                      <tr>
                        <th scope="col">{t.posts.network}</th>
                        <th scope="col">{t.posts.status}</th>
                        <th scope="col">{t.posts.when}</th>
                        <th scope="col">{t.posts.text}</th>
                        <th scope="col">{t.posts.result}</th>
                        <th scope="col">{t.posts.attempts}</th>
                        <th scope="col">{t.posts.actions}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {rows.map((i) => {
                        const name = networkName(i.platform);
                        return (
                          <tr key={i.id} data-status={i.status}>
                            <td data-label={t.posts.network}>{name}</td>
                            <td data-label={t.posts.status}>
                              <span className={`badge ${BADGE[i.status] ?? ''}`}>
                                {t.calendar.statuses[i.status] ?? i.status}
                              </span>
                            </td>
                            <td data-label={t.posts.when}>
                              <time dateTime={i.at}>{fmt.format(new Date(i.at))}</time>
                            </td>
                            <td data-label={t.posts.text} className="posts-text">
                              {i.text || t.calendar.noText}
                            </td>
                            <td data-label={t.posts.result}>
                              {i.permalink && (
                                <a href={i.permalink} target="_blank" rel="noreferrer">
                                  {t.posts.open}
                                </a>
                              )}
                              {i.error && <span className="posts-error">{i.error}</span>}
                            </td>
                            <td data-label={t.posts.attempts}>{i.attempts ?? '—'}</td>
                            <td data-label={t.posts.actions}>
                              <div className="row">
                                {i.status === 'published' && i.publishedPostId && (
                                  <Button
                                    variant="danger"
                                    aria-label={t.posts.deleteOf(name)}
                                    onClick={() => {
                                      remove.reset();
                                      setDeleting(i);
                                    }}
                                  >
                                    {t.posts.delete}
                                  </Button>
                                )}
                                {i.queueId && (
                                  <Button aria-label={t.posts.detailsOf(name)} onClick={() => showStory(i.queueId)}>
                                    {t.posts.details}
                                  </Button>
                                )}
                                {i.status === 'failed' && i.queueId && (
                                  <Button
                                    aria-label={t.posts.retryOf(name)}
                                    busy={retry.isPending && retry.variables?.id === i.id}
                                    onClick={() => retry.mutate(i)}
                                  >
                                    {t.posts.retry}
                                  </Button>
                                )}
                                {i.status === 'scheduled' && i.queueId && (
                                  <Button
                                    aria-label={t.posts.cancelOf(name)}
                                    busy={cancel.isPending && cancel.variables?.id === i.id}
                                    onClick={() => cancel.mutate(i)}
                                  >
                                    {t.posts.cancel}
                                  </Button>
                                )}
                              </div>
                            </td>
                          </tr>
                        );
                      })}
                    </tbody>
                  </table>
                </div>
              )}
            </>
          );
        }}
      </QueryView>
      {story && <TimelineDialog id={story} onClose={() => showStory(null)} onRetried={() => void refresh()} />}
      <Dialog
        open={deleting !== undefined}
        title={t.posts.deleteTitle(networkName(deleting?.platform ?? ''))}
        onClose={() => setDeleting(undefined)}
        actions={
          <>
            <Button onClick={() => setDeleting(undefined)}>{t.common.cancel}</Button>
            <Button variant="danger" busy={remove.isPending} onClick={() => deleting && remove.mutate(deleting)}>
              {t.posts.delete}
            </Button>
          </>
        }
      >
        <p>{t.posts.deleteBody}</p>
        {deleting?.text && <p className="post-text">{deleting.text}</p>}
        <ErrorText error={remove.error} />
      </Dialog>
    </>
  );
}

// The story of one post (GET /unified/posts/{id}/timeline): per network target its state, every attempt with its
// time, outcome, source and the network's error, when Herald tries again and its first comment's outcome; a retry of
// its failed networks.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, must } from '../../api/client.ts';
import { retryPost } from '../../api/history.ts';
import { networkName } from '../../api/networks.ts';
import { useWorkspace } from '../../app/session.tsx';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { DataTable } from '../../ui/DataTable.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Empty, ErrorText, QueryView } from '../../ui/States.tsx';
import { useWorkspaceTime } from '../../ui/useWorkspaceTime.ts';
import { eventTypeName } from '../notifications/events.ts';
import '../notifications/events.css';

const BADGE: Record<string, string> = {
  published: 'badge-success',
  failed: 'badge-danger',
  processing: 'badge-warning',
  pending: 'badge-info',
};

export const timelineKey = (workspaceId: string, id: string) => ['post-timeline', workspaceId, id] as const;

export function TimelineDialog({ id, onClose, onRetried }: { id: string; onClose: () => void; onRetried: () => void }) {
  const { workspace } = useWorkspace();
  const time = useWorkspaceTime();
  const [notice, setNotice] = useState('');
  const story = useQuery({
    queryKey: timelineKey(workspace.id, id),
    queryFn: () => must(api.GET('/unified/posts/{post_id}/timeline', { params: { path: { post_id: id } } })),
  });
  const retry = useMutation({
    mutationFn: () => retryPost(id),
    onSuccess: (message) => setNotice(message ?? t.posts.nothingRetried),
    onSettled: () => {
      void story.refetch();
      onRetried();
    },
  });
  const anyFailed =
    story.data?.targets.some((x) => x.state === 'failed') || story.data?.queue.some((q) => q.status === 'failed');
  return (
    <Dialog
      open
      title={t.posts.timelineTitle}
      onClose={onClose}
      actions={
        <>
          {anyFailed && (
            <Button busy={retry.isPending} onClick={() => retry.mutate()}>
              {t.posts.retry}
            </Button>
          )}
          <Button onClick={onClose}>{t.common.close}</Button>
        </>
      }
    >
      <p role="status" className="muted">
        {notice}
      </p>
      <ErrorText error={retry.error} />
      <QueryView query={story}>
        {(d) => (
          <>
            {d.targets.length === 0 && d.queue.length === 0 && <Empty title={t.posts.timelineEmpty} />}
            {d.targets.map((target) => {
              const name = networkName(target.platform);
              return (
                <section key={target.target_id} className="timeline-target" aria-label={name}>
                  <h3>
                    {name}{' '}
                    <span className={`badge ${BADGE[target.state] ?? ''}`}>
                      {t.posts.states[target.state] ?? target.state}
                    </span>
                  </h3>
                  {target.permalink && (
                    <a href={target.permalink} target="_blank" rel="noreferrer">
                      {t.posts.open}
                    </a>
                  )}
                  {target.error_message && <p className="posts-error">{target.error_message}</p>}
                  {target.first_comment?.status === 'posted' && (
                    <p>
                      {t.posts.firstCommentPosted}{' '}
                      {target.first_comment.permalink && (
                        <a href={target.first_comment.permalink} target="_blank" rel="noreferrer">
                          {t.posts.openComment}
                        </a>
                      )}
                    </p>
                  )}
                  {target.first_comment?.status === 'failed' && (
                    <p className="posts-error">{t.posts.firstCommentFailed(target.first_comment.error ?? '')}</p>
                  )}
                  {target.first_comment?.status === 'pending' && <p className="muted">{t.posts.firstCommentPending}</p>}
                  {target.next_retry_at && <p>{t.posts.nextRetry(time.dateTime(target.next_retry_at))}</p>}
                  {target.attempts.length === 0 ? (
                    <p className="muted">{t.posts.noAttempts}</p>
                  ) : (
                    <DataTable
                      caption={t.posts.attemptsTitle(name)}
                      columns={[t.posts.attempt, t.posts.time, t.posts.outcome, t.posts.source, t.posts.error]}
                    >
                      {target.attempts.map((a) => (
                        <tr key={a.attempt}>
                          <th scope="row">{a.attempt}</th>
                          <td>
                            <time dateTime={a.at}>{time.dateTime(a.at)}</time>
                          </td>
                          <td>
                            <span className={`badge ${BADGE[a.outcome] ?? ''}`}>
                              {t.posts.outcomes[a.outcome] ?? a.outcome}
                            </span>
                          </td>
                          <td>{t.posts.sources[a.source] ?? a.source}</td>
                          <td className="posts-text">{a.error_message ?? '—'}</td>
                        </tr>
                      ))}
                    </DataTable>
                  )}
                </section>
              );
            })}
            {d.queue.length > 0 && (
              <DataTable
                caption={t.posts.queueTitle}
                columns={[t.posts.network, t.posts.status, t.posts.when, t.posts.attempts, t.posts.error]}
              >
                {d.queue.map((q) => (
                  <tr key={q.scheduled_post_id}>
                    <th scope="row">{networkName(q.platform)}</th>
                    <td>
                      {t.calendar.statuses[q.status] ?? q.status}
                      {q.next_retry_at && (
                        <span className="muted"> · {t.posts.nextRetry(time.dateTime(q.next_retry_at))}</span>
                      )}
                    </td>
                    <td>{time.dateTime(q.scheduled_time)}</td>
                    <td>{q.attempts}</td>
                    <td className="posts-text">{q.error_message ?? '—'}</td>
                  </tr>
                ))}
              </DataTable>
            )}
            {d.events.length > 0 && (
              <>
                <h3>{t.posts.eventsTitle}</h3>
                <ul>
                  {d.events.map((e) => (
                    <li key={e.id}>
                      <time dateTime={e.occurred_at}>{time.dateTime(e.occurred_at)}</time> — {eventTypeName(e.type)}
                    </li>
                  ))}
                </ul>
              </>
            )}
          </>
        )}
      </QueryView>
    </Dialog>
  );
}

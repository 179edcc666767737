// The inbox: comments on the workspace's recent posts across networks (GET /unified/comments), one thread per post,
// unread first; a reply is written in line (POST /unified/comments/reply) and each thread links to its post.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { api, must } from '../../api/client.ts';
import { networkName } from '../../api/networks.ts';
import { useWorkspace } from '../../app/session.tsx';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { Empty, ErrorState, ErrorText, Loading } from '../../ui/States.tsx';
import { useWorkspaceTime } from '../../ui/useWorkspaceTime.ts';
import '../../styles/pages.css';
import { useReadState } from './read-state.ts';
import { buildThreads, type InboxComment, readKeys, replyQuery, type Thread, unreadTotal } from './threads.ts';

const commentsKey = (workspaceId: string) => ['inbox', 'comments', workspaceId] as const;

function ReplyForm({
  thread,
  comment,
  onDone,
}: {
  thread: Thread;
  comment: InboxComment;
  onDone: (replyId?: string) => void;
}) {
  const { workspace } = useWorkspace();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const id = useId();
  const input = useRef<HTMLTextAreaElement>(null);
  // Opening the form puts the cursor in it (keyboard users land where they type).
  useEffect(() => {
    input.current?.focus();
  }, []);
  const reply = useMutation({
    mutationFn: () =>
      must(api.POST('/unified/comments/reply', { params: { query: replyQuery(thread, comment.id) }, body: { text } })),
    onSuccess: (res) => {
      setText('');
      onDone(res.reply_id);
      void queryClient.invalidateQueries({ queryKey: commentsKey(workspace.id) });
    },
  });
  return (
    <form
      className="reply-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) reply.mutate();
      }}
    >
      <label htmlFor={id}>{t.inbox.replyTo(comment.author_name)}</label>
      <textarea ref={input} id={id} value={text} rows={3} onChange={(e) => setText(e.target.value)} required />
      <ErrorText error={reply.error} />
      <div className="reply-actions">
        <Button type="submit" variant="primary" busy={reply.isPending} disabled={!text.trim()}>
          {t.inbox.send}
        </Button>
        <Button onClick={() => onDone()}>{t.common.cancel}</Button>
      </div>
    </form>
  );
}

/** The author's picture, or the first letter of the name when there is none or it does not load. */
function Avatar({ url, name }: { url: string | null; name: string }) {
  const [failed, setFailed] = useState(false);
  if (url && !failed) return <img className="avatar" src={url} alt="" onError={() => setFailed(true)} />;
  return (
    <span className="avatar avatar-initial" aria-hidden="true">
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}

function CommentItem({
  thread,
  comment,
  unread,
  onReplied,
}: {
  thread: Thread;
  comment: InboxComment;
  unread: ReadonlySet<string>;
  onReplied: (replyId?: string) => void;
}) {
  const time = useWorkspaceTime();
  const [replying, setReplying] = useState(false);
  const isUnread = unread.has(comment.id);
  return (
    <li className={`comment${isUnread ? ' comment-unread' : ''}`}>
      <div className="comment-head">
        <Avatar url={comment.author_profile_image_url} name={comment.author_name} />
        <span className="comment-author">{comment.author_name}</span>
        {comment.created_at && (
          <time dateTime={comment.created_at} className="comment-time">
            {time.dateTime(comment.created_at)}
          </time>
        )}
        {isUnread && <span className="badge badge-unread">{t.inbox.unread}</span>}
        {comment.platform_meta.is_hidden && <span className="badge">{t.inbox.hidden}</span>}
      </div>
      <p className="comment-text">{comment.text}</p>
      {!replying && (
        <Button variant="ghost" onClick={() => setReplying(true)} aria-label={t.inbox.replyTo(comment.author_name)}>
          {t.inbox.reply}
        </Button>
      )}
      {replying && (
        <ReplyForm
          thread={thread}
          comment={comment}
          onDone={(replyId) => {
            setReplying(false);
            if (replyId) onReplied(replyId);
          }}
        />
      )}
      {comment.replies.length > 0 && (
        <ul className="replies">
          {comment.replies.map((r) => (
            <CommentItem key={r.id} thread={thread} comment={r} unread={unread} onReplied={onReplied} />
          ))}
        </ul>
      )}
    </li>
  );
}

function ThreadCard({ thread, onRead }: { thread: Thread; onRead: (ids: string[]) => void }) {
  const unread = useMemo(() => new Set(thread.unreadIds), [thread.unreadIds]);
  const headingId = useId();
  const title = thread.post?.commentary?.trim() || t.inbox.untitledPost;
  return (
    <article className="thread card" aria-labelledby={headingId}>
      <header className="thread-head">
        <span className={`network-chip network-${thread.platform}`}>{networkName(thread.platform)}</span>
        <h2 id={headingId} className="thread-title">
          {title.length > 140 ? `${title.slice(0, 140)}…` : title}
        </h2>
        {thread.unreadIds.length > 0 && (
          <span className="badge badge-unread">{t.inbox.unreadCount(thread.unreadIds.length)}</span>
        )}
      </header>
      <div className="thread-actions">
        {thread.post?.permalink && (
          <a href={thread.post.permalink} target="_blank" rel="noreferrer" className="btn btn-ghost">
            {t.inbox.openPost}
          </a>
        )}
        {thread.unreadIds.length > 0 && (
          <Button variant="ghost" onClick={() => onRead(readKeys(thread, thread.allIds))}>
            {t.inbox.markRead}
          </Button>
        )}
      </div>
      {thread.status !== 'ok' && thread.statusMessage && (
        <p className="thread-status" role="note">
          {thread.statusMessage}
        </p>
      )}
      <ul className="comments">
        {thread.comments.map((c) => (
          <CommentItem
            key={c.id}
            thread={thread}
            comment={c}
            unread={unread}
            onReplied={(replyId) => onRead(readKeys(thread, [...thread.allIds, ...(replyId ? [replyId] : [])]))}
          />
        ))}
      </ul>
    </article>
  );
}

function InboxView() {
  const { workspace } = useWorkspace();
  const { read, markRead } = useReadState(workspace.id);
  const queryClient = useQueryClient();
  const comments = useQuery({
    queryKey: commentsKey(workspace.id),
    queryFn: () => must(api.GET('/unified/comments', { params: { query: {} } })),
  });
  const posts = useQuery({
    queryKey: ['inbox', 'posts', workspace.id],
    queryFn: () => must(api.GET('/unified/posts', { params: { query: { stats: 'false' } } })),
  });
  const refresh = useMutation({
    mutationFn: () => must(api.GET('/unified/comments', { params: { query: { force_refresh: 'true' } } })),
    onSuccess: (data) => queryClient.setQueryData(commentsKey(workspace.id), data),
  });
  const model = useMemo(
    () =>
      comments.data
        ? buildThreads(comments.data as Record<string, unknown>, (posts.data ?? {}) as Record<string, unknown>, read)
        : null,
    [comments.data, posts.data, read],
  );
  const unread = model ? unreadTotal(model.threads) : 0;

  return (
    <>
      <PageHeader title={t.inbox.title}>
        {model && unread > 0 && (
          <Button onClick={() => markRead(model.threads.flatMap((th) => readKeys(th, th.allIds)))}>
            {t.inbox.markAllRead}
          </Button>
        )}
        <Button busy={refresh.isPending} onClick={() => refresh.mutate()}>
          {t.inbox.refresh}
        </Button>
      </PageHeader>
      <ErrorText error={refresh.error} />
      {comments.isPending ? (
        <Loading />
      ) : comments.error || !model ? (
        <ErrorState error={comments.error} onRetry={() => void comments.refetch()} />
      ) : (
        <>
          <p className="inbox-summary" aria-live="polite">
            {t.inbox.summary(model.threads.length, unread)}
          </p>
          {model.problems.map((p) => (
            <p key={p.platform} className="page-note" role="note">
              <strong>{networkName(p.platform)}</strong>: {p.message ?? p.error}
            </p>
          ))}
          {model.threads.length === 0 ? (
            <Empty title={t.inbox.empty}>
              <p>{t.inbox.emptyHint}</p>
            </Empty>
          ) : (
            <div className="threads">
              {model.threads.map((th) => (
                <ThreadCard key={th.key} thread={th} onRead={markRead} />
              ))}
            </div>
          )}
        </>
      )}
    </>
  );
}

/** A page of its own per workspace: switching workspaces starts it afresh (what was read, typed or sent here stays with its workspace). */
export default function InboxPage() {
  const { workspace } = useWorkspace();
  return <InboxView key={workspace.id} />;
}

// The inbox's model: GET /unified/comments answers one slice per network, each with its posts and their comments
// (docs/engagement.md); the inbox shows one thread per post, the posts with unread comments first. "Read" is what the
// member has marked read, kept by Herald per member (GET/POST /unified/comments/read, `read-state.ts`).

export interface InboxComment {
  id: string;
  type: 'comment' | 'reply';
  text: string;
  author_name: string;
  author_profile_image_url: string | null;
  created_at: string | null;
  like_count: number;
  reply_count: number;
  parent_id: string | null;
  replies: InboxComment[];
  platform_meta: { is_hidden: boolean };
  /** Written by the connected account itself (its first comment, a reply sent from Herald): never unread. */
  own?: boolean;
}

export interface CommentSlicePost {
  post_id: string;
  page_id: string | null;
  comments_disabled: boolean;
  comment_status: 'ok' | 'error' | 'disabled';
  comment_status_message: string | null;
  comments: InboxComment[];
}

export interface PostSummary {
  post_id: string;
  commentary: string | null;
  permalink: string | null;
  published_at: string | null;
}

export interface Thread {
  key: string;
  platform: string;
  postId: string;
  pageId: string | null;
  post: PostSummary | null;
  comments: InboxComment[];
  /** ids of this thread's comments and replies not marked read (the account's own are never unread) */
  unreadIds: string[];
  /** every comment and reply id of the thread */
  allIds: string[];
  latestAt: number;
  status: CommentSlicePost['comment_status'];
  statusMessage: string | null;
}

export interface SliceProblem {
  platform: string;
  error: string;
  message: string | null;
}

export const threadKey = (platform: string, postId: string) => `${platform}:${postId}`;

type Slice = { posts?: CommentSlicePost[]; error?: string; message?: string };

/** The network slices of a comments or posts answer: its object values that have a `posts` list. */
export function slicesOf<T extends { posts?: unknown[] }>(answer: Record<string, unknown>): [string, T][] {
  return Object.entries(answer).filter(
    (e): e is [string, T] =>
      typeof e[1] === 'object' && e[1] !== null && Array.isArray((e[1] as { posts?: unknown }).posts),
  );
}

function walk(comments: InboxComment[], visit: (c: InboxComment) => void) {
  for (const c of comments) {
    visit(c);
    walk(c.replies ?? [], visit);
  }
}

const time = (iso: string | null) => (iso ? Date.parse(iso) || 0 : 0);

/**
 * Threads from a comments answer, the posts answer (for each post's text and link; may be empty) and the ids read.
 * Posts without comments are left out unless their comments could not be read (their status is shown). Order:
 * threads with unread comments first, then by their newest comment, newest first.
 */
export function buildThreads(
  comments: Record<string, unknown>,
  posts: Record<string, unknown>,
  read: ReadonlySet<string>,
): { threads: Thread[]; problems: SliceProblem[] } {
  const byKey = new Map<string, PostSummary>();
  for (const [platform, slice] of slicesOf<{ posts: PostSummary[] }>(posts))
    for (const p of slice.posts) byKey.set(threadKey(platform, p.post_id), p);

  const threads: Thread[] = [];
  const problems: SliceProblem[] = [];
  for (const [platform, slice] of slicesOf<Slice>(comments)) {
    if (slice.error && slice.error !== 'NOT_CONNECTED')
      problems.push({ platform, error: slice.error, message: slice.message ?? null });
    for (const p of slice.posts ?? []) {
      if (p.comments.length === 0 && p.comment_status !== 'error') continue;
      const allIds: string[] = [];
      const own = new Set<string>();
      let latestAt = 0;
      walk(p.comments, (c) => {
        allIds.push(c.id);
        if (c.own) own.add(c.id);
        latestAt = Math.max(latestAt, time(c.created_at));
      });
      const key = threadKey(platform, p.post_id);
      threads.push({
        key,
        platform,
        postId: p.post_id,
        pageId: p.page_id,
        post: byKey.get(key) ?? null,
        comments: p.comments,
        unreadIds: allIds.filter((id) => !own.has(id) && !read.has(threadKey(platform, id))),
        allIds,
        latestAt,
        status: p.comment_status,
        statusMessage: p.comment_status_message,
      });
    }
  }
  threads.sort((a, b) => {
    const ua = a.unreadIds.length > 0 ? 1 : 0;
    const ub = b.unreadIds.length > 0 ? 1 : 0;
    return ub - ua || b.latestAt - a.latestAt || a.key.localeCompare(b.key);
  });
  return { threads, problems };
}

export function unreadTotal(threads: Thread[]): number {
  return threads.reduce((n, t) => n + t.unreadIds.length, 0);
}

/** The query of POST /unified/comments/reply for a comment of a thread (the Page or organization when there is one). */
export function replyQuery(thread: Pick<Thread, 'platform' | 'postId' | 'pageId'>, commentId: string) {
  const query: Record<string, string> = { platform: thread.platform, comment_id: commentId, post_id: thread.postId };
  if (thread.pageId && thread.platform === 'facebook') query.facebook_page_id = thread.pageId;
  if (thread.pageId && thread.platform === 'linkedin') query.linkedin_organization_id = thread.pageId;
  return query;
}

/** The keys under which a thread's comments are remembered as read (comment ids are unique per network only). */
export function readKeys(thread: Pick<Thread, 'platform'>, ids: readonly string[]): string[] {
  return ids.map((id) => threadKey(thread.platform, id));
}

/** Read ids kept per workspace: the newest ids win when there are more than `max`. */
export function addRead(previous: readonly string[], ids: readonly string[], max = 5000): string[] {
  const set = new Set(previous);
  for (const id of ids) {
    set.delete(id);
    set.add(id);
  }
  const all = [...set];
  return all.length > max ? all.slice(all.length - max) : all;
}

/** A read key (`platform:id`) as the read-state routes take it; ids may hold colons (URNs, at:// URIs), slugs never. */
export function refOfKey(key: string): { platform: string; comment_id: string } | null {
  const i = key.indexOf(':');
  return i > 0 && i < key.length - 1 ? { platform: key.slice(0, i), comment_id: key.slice(i + 1) } : null;
}

/** Splits a list into parts of at most `size` (the read-state route takes 500 comments a request). */
export function chunks<T>(all: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < all.length; i += size) out.push(all.slice(i, i + size));
  return out;
}

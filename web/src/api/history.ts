// The history the calendar and the posts page show, fetched together: the whole queue (page by page), drafts and
// published posts.
import { useQuery } from '@tanstack/react-query';
import { useWorkspace } from '../app/session.tsx';
import {
  type CalendarItem,
  draftItems,
  type PublishedPost,
  postItems,
  type QueueEntry,
  queueItems,
} from '../calendar/items.ts';
import { api, must } from './client.ts';
import { ApiError } from './errors.ts';

const PAGE = 100;
const MAX_PAGES = 50;

async function allQueueEntries(): Promise<QueueEntry[] | 'unavailable'> {
  const out: QueueEntry[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    let res: Awaited<ReturnType<typeof fetchPage>>;
    try {
      res = await fetchPage(page * PAGE);
    } catch (err) {
      // A plan without scheduling: the calendar still shows published posts and drafts.
      if (err instanceof ApiError && err.status === 403 && page === 0) return 'unavailable';
      throw err;
    }
    const list = res.data?.scheduled_posts ?? [];
    out.push(...list);
    // The answer's `total` counts the entries of this page, not the queue's: a short page is the last one.
    if (list.length < PAGE) break;
  }
  return out;
}

const fetchPage = (offset: number) =>
  must(api.GET('/unified/scheduled-posts', { params: { query: { limit: PAGE, offset } } }));

/** Every draft, page by page as the queue is read (a short page is the last). */
async function allDrafts() {
  type Drafts = Awaited<ReturnType<typeof fetchDrafts>>['data'];
  const out: Drafts = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const list = (await fetchDrafts(page * PAGE)).data ?? [];
    out.push(...list);
    if (list.length < PAGE) break;
  }
  return out;
}

const fetchDrafts = (offset: number) =>
  must(api.GET('/unified/drafts', { params: { query: { limit: PAGE, offset } } }));

function publishedByNetwork(answer: Record<string, unknown>): Record<string, PublishedPost[]> {
  const out: Record<string, PublishedPost[]> = {};
  for (const [key, value] of Object.entries(answer)) {
    if (value && typeof value === 'object' && Array.isArray((value as { posts?: unknown }).posts))
      out[key] = (value as { posts: PublishedPost[] }).posts;
  }
  return out;
}

export interface HistoryData {
  items: CalendarItem[];
  schedulingAvailable: boolean;
}

/** Every page showing the history reads this key; a write that changes it invalidates it. */
export const historyKey = (workspaceId: string) => ['history', workspaceId] as const;

export function useHistory() {
  const { workspace } = useWorkspace();
  return useQuery({
    queryKey: historyKey(workspace.id),
    queryFn: async (): Promise<HistoryData> => {
      const [queue, drafts, posts] = await Promise.all([
        allQueueEntries(),
        allDrafts(),
        must(api.GET('/unified/posts')),
      ]);
      const q = queue === 'unavailable' ? [] : queueItems(queue);
      const items = [...q, ...draftItems(drafts), ...postItems(publishedByNetwork(posts), q)];
      performance.mark('herald:calendar:data');
      return { items, schedulingAvailable: queue !== 'unavailable' };
    },
  });
}

/**
 * Publishes a queue entry now (a retry of a failed one, or a scheduled one early). Its answer is 200 even when the
 * network refused: then this throws with what the network said, so the page shows it as the error it is.
 */
export async function publishQueuedNow(id: string): Promise<string> {
  const res = await must(api.POST('/unified/scheduled-posts/{id}/publish-now', { params: { path: { id } } }));
  const entry = res.data?.scheduled_posts[0];
  if (!res.success || entry?.status === 'failed')
    throw new Error([res.message, entry?.error_message ?? res.error].filter(Boolean).join(': '));
  return res.message;
}

/**
 * Sends the failed networks of a post again (POST /unified/posts/{id}/retry; `id`: Herald's post id or a queue
 * entry's). Throws with the networks' words when a retried network failed again; `retried: 0` (nothing failed, or a
 * retry already running) comes back as `null`.
 */
export async function retryPost(id: string): Promise<string | null> {
  const res = await must(api.POST('/unified/posts/{post_id}/retry', { params: { path: { post_id: id } } }));
  if (res.retried === 0) return null;
  const failed = res.results.filter((r) => !r.success);
  if (!res.success || failed.length)
    throw new Error([res.message, ...failed.map((r) => r.error ?? r.message)].filter(Boolean).join(': '));
  return res.message;
}

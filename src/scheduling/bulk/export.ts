// GET /unified/bulk/export: the workspace's scheduled, published and draft posts as rows of the import format, so an
// export imported into another workspace schedules the same posts at the same times. One row per network (a queue
// entry, a draft or a published target is one network's post). Published posts are the queue entries that went out
// and the posts published at once (no queue entry), the latter at their time of publication. CSV cells that a
// spreadsheet would run as a formula are escaped.
import type { Principal } from '../../auth/authenticate.ts';
import type { Db } from '../../db/client.ts';
import { and, asc, desc, eq, gte, inArray, isNull, lt, sql } from '../../db/orm.ts';
import { drafts, posts, postTargets } from '../../db/schema-publishing.ts';
import { scheduledPosts } from '../../db/schema-scheduling.ts';
import type { Networks } from '../../platforms/registry.ts';
import type { PostBody } from '../../publishing/index.ts';
import { localIso } from '../time.ts';
import { allColumns, escapeFormula, overrideColumns } from './columns.ts';

/** Rows one export holds at most (the import's limit): narrow it with from and to beyond that. */
export const EXPORT_MAX_ROWS = 10_000;

export interface ExportQuery {
  format: 'csv' | 'json';
  from?: Date | undefined;
  to?: Date | undefined;
  /** A queue entry's status (scheduled, published, failed…) or draft; default: scheduled, published and draft. */
  status?: string | undefined;
}

type Row = Record<string, string | boolean>;

const MEDIA_FIELDS = ['default_image_url', 'video_url', 'image_urls'] as const;

function rowOf(
  networks: Pick<Networks, 'networks'>,
  platform: string,
  body: PostBody,
  time: string | null,
  draft: boolean,
): Row {
  const out: Row = { networks: platform };
  const b = body as Record<string, unknown>;
  if (typeof b.default_text === 'string') out.text = b.default_text;
  if (time) out.time = time;
  // The row's one network: its own first comment ("" for none there) or the post's, in the first_comment column.
  const own = b[platform] as Record<string, unknown> | undefined;
  const comment = typeof own?.first_comment === 'string' ? own.first_comment : b.first_comment;
  if (typeof comment === 'string' && comment) out.first_comment = comment;
  const urls = MEDIA_FIELDS.flatMap((f) => {
    const v = b[f];
    return typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  }).filter((u) => /^https?:\/\//.test(u));
  if (urls.length) out.media_urls = urls.join(' ');
  if (draft) out.draft = true;
  for (const [col, o] of overrideColumns(networks)) {
    if (o.platform === platform && o.field !== 'first_comment' && typeof own?.[o.field] === 'string')
      out[col] = own[o.field] as string;
  }
  return out;
}

export async function exportRows(
  db: Db,
  networks: Pick<Networks, 'networks'>,
  p: Principal,
  timeZone: string,
  q: ExportQuery,
): Promise<Row[]> {
  const platforms = [...p.scope.platforms];
  const wantDrafts = (q.status === undefined || q.status === 'draft') && !q.from && !q.to;
  const statuses = q.status === undefined ? ['scheduled', 'published'] : q.status === 'draft' ? [] : [q.status];
  const timed: { at: Date; row: Row }[] = [];
  if (statuses.length) {
    const entries = await db
      .select({
        platform: scheduledPosts.platform,
        postData: scheduledPosts.postData,
        scheduledTime: scheduledPosts.scheduledTime,
      })
      .from(scheduledPosts)
      .where(
        and(
          eq(scheduledPosts.workspaceId, p.workspaceId),
          inArray(scheduledPosts.platform, platforms.length ? platforms : ['']),
          inArray(scheduledPosts.status, statuses),
          q.from ? gte(scheduledPosts.scheduledTime, q.from) : undefined,
          q.to ? lt(scheduledPosts.scheduledTime, q.to) : undefined,
        ),
      )
      .orderBy(asc(scheduledPosts.scheduledTime), asc(scheduledPosts.createdAt))
      .limit(EXPORT_MAX_ROWS);
    for (const e of entries)
      timed.push({
        at: e.scheduledTime,
        row: rowOf(networks, e.platform, e.postData as PostBody, localIso(e.scheduledTime, timeZone), false),
      });
  }
  if (statuses.includes('published')) {
    // Posts published at once: their targets out on a network (not deleted there), of a post no queue entry made.
    const sent = await db
      .select({ platform: postTargets.platform, request: posts.request, publishedAt: postTargets.publishedAt })
      .from(postTargets)
      .innerJoin(posts, eq(posts.id, postTargets.postId))
      .where(
        and(
          eq(postTargets.workspaceId, p.workspaceId),
          eq(postTargets.state, 'published'),
          isNull(postTargets.deletedAt),
          inArray(postTargets.platform, platforms.length ? platforms : ['']),
          sql`not exists (select 1 from ${scheduledPosts} where ${scheduledPosts.postId} = ${postTargets.postId})`,
          q.from ? gte(postTargets.publishedAt, q.from) : undefined,
          q.to ? lt(postTargets.publishedAt, q.to) : undefined,
        ),
      )
      .orderBy(asc(postTargets.publishedAt), asc(postTargets.createdAt))
      .limit(EXPORT_MAX_ROWS);
    for (const t of sent) {
      const at = t.publishedAt ?? new Date(0);
      timed.push({ at, row: rowOf(networks, t.platform, t.request as PostBody, localIso(at, timeZone), false) });
    }
  }
  // Both kinds in the order of their times (a stable sort keeps each query's own order for equal times).
  const rows = timed
    .sort((x, y) => x.at.getTime() - y.at.getTime())
    .slice(0, EXPORT_MAX_ROWS)
    .map((t) => t.row);
  if (wantDrafts && rows.length < EXPORT_MAX_ROWS) {
    const saved = await db
      .select({ platform: drafts.platform, body: drafts.body })
      .from(drafts)
      .where(
        and(
          eq(drafts.workspaceId, p.workspaceId),
          eq(drafts.status, 'draft'),
          eq(drafts.kind, 'post'),
          inArray(drafts.platform, platforms.length ? platforms : ['']),
        ),
      )
      .orderBy(desc(drafts.createdAt))
      .limit(EXPORT_MAX_ROWS - rows.length);
    for (const d of saved) rows.push(rowOf(networks, d.platform, d.body as PostBody, null, true));
  }
  return rows;
}

/** The rows as a CSV file (header first, every column of the import format) or as JSON lines. */
export function serialise(networks: Pick<Networks, 'networks'>, rows: Row[], format: 'csv' | 'json'): string {
  if (format === 'json') return rows.map((r) => `${JSON.stringify(r)}\n`).join('');
  const columns = allColumns(networks);
  const cells = rows.map((r) =>
    columns.map((c) => {
      const v = r[c];
      return v === undefined ? '' : typeof v === 'boolean' ? String(v) : escapeFormula(v);
    }),
  );
  return [columns, ...cells].map((line) => `${line.map(quoted).join(',')}\r\n`).join('');
}

/** RFC 4180: a cell with a comma, quote or line break is quoted, its quotes doubled. */
const quoted = (cell: string): string => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);

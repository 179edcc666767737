// The feeds' rows: a workspace's feeds, the guarded claim of the feeds due for a poll, the outcome of a poll, and
// the items seen (inserted with ON CONFLICT DO NOTHING on the (feed, key) index, so an item is taken exactly once).
import type { Db } from '../db/client.ts';
import { and, desc, eq, sql } from '../db/orm.ts';
import { rawTable, rowsOf } from '../db/raw.ts';
import { feedItems, feeds } from '../db/schema-feeds.ts';

const FEED = rawTable(feeds);

export type FeedRow = typeof feeds.$inferSelect;
export type FeedInsert = typeof feeds.$inferInsert;
export type FeedItemRow = typeof feedItems.$inferSelect;

export interface SeenItem {
  key: string;
  title: string;
  link: string | null;
  publishedAt: Date | null;
  outcome: 'posted' | 'skipped';
}

export class FeedStore {
  readonly #db: Db;
  readonly #clock: () => Date;

  constructor(db: Db, clock: () => Date) {
    this.#db = db;
    this.#clock = clock;
  }

  async insert(row: FeedInsert): Promise<FeedRow> {
    const now = this.#clock();
    const [made] = await this.#db
      .insert(feeds)
      .values({ ...row, createdAt: now, updatedAt: now })
      .returning();
    return made!;
  }

  async list(workspaceId: string): Promise<FeedRow[]> {
    return this.#db.select().from(feeds).where(eq(feeds.workspaceId, workspaceId)).orderBy(desc(feeds.createdAt));
  }

  async byId(workspaceId: string, id: string): Promise<FeedRow | undefined> {
    const [row] = await this.#db
      .select()
      .from(feeds)
      .where(and(eq(feeds.workspaceId, workspaceId), eq(feeds.id, id)));
    return row;
  }

  async update(workspaceId: string, id: string, patch: Partial<FeedInsert>): Promise<FeedRow | undefined> {
    const [row] = await this.#db
      .update(feeds)
      .set({ ...patch, updatedAt: this.#clock() })
      .where(and(eq(feeds.workspaceId, workspaceId), eq(feeds.id, id)))
      .returning();
    return row;
  }

  async remove(workspaceId: string, id: string): Promise<boolean> {
    const rows = await this.#db
      .delete(feeds)
      .where(and(eq(feeds.workspaceId, workspaceId), eq(feeds.id, id)))
      .returning({ id: feeds.id });
    return rows.length > 0;
  }

  /**
   * Claims up to `limit` feeds not paused and last claimed before `before`, in one guarded statement: a feed claimed
   * by one process is not due for another (nor again in the same round) until the interval has passed again.
   */
  async claimDue(before: Date, limit: number): Promise<FeedRow[]> {
    const now = this.#clock().toISOString();
    const due = sql`not paused and (last_polled_at is null or last_polled_at < ${before.toISOString()}::timestamptz)`;
    const res = await this.#db.execute(sql`
      update ${feeds} set last_polled_at = ${now}::timestamptz
      where id in (
        select id from ${feeds} where ${due}
        order by last_polled_at asc nulls first
        limit ${limit}
        for update skip locked
      ) and ${due}
      returning *`);
    return rowsOf(res).map((r) => FEED.row(r));
  }

  /** Marks one feed polled now (a poll asked for by a member), so the round does not poll it again at once. */
  async claimOne(workspaceId: string, id: string): Promise<FeedRow | undefined> {
    const [row] = await this.#db
      .update(feeds)
      .set({ lastPolledAt: this.#clock() })
      .where(and(eq(feeds.workspaceId, workspaceId), eq(feeds.id, id)))
      .returning();
    return row;
  }

  async succeeded(id: string, v: { etag?: string | null; lastModified?: string | null }): Promise<void> {
    await this.#db
      .update(feeds)
      .set({ ...v, primed: true, lastSuccessAt: this.#clock(), failures: 0 })
      .where(eq(feeds.id, id));
  }

  /** Records a failed poll; returns the row as it is now (its failure count), in the caller's transaction. */
  async failed(tx: Db, id: string, error: string): Promise<FeedRow | undefined> {
    const [row] = await tx
      .update(feeds)
      .set({ lastError: error, lastErrorAt: this.#clock(), failures: sql`${feeds.failures} + 1` })
      .where(eq(feeds.id, id))
      .returning();
    return row;
  }

  /** Remembers items; returns the keys this call inserted (an item another poll took first is not returned). */
  async remember(feed: FeedRow, items: readonly SeenItem[]): Promise<Set<string>> {
    if (!items.length) return new Set();
    const now = this.#clock();
    const rows = await this.#db
      .insert(feedItems)
      .values(
        items.map((i) => ({
          feedId: feed.id,
          workspaceId: feed.workspaceId,
          itemKey: i.key,
          title: i.title.slice(0, 500),
          link: i.link,
          publishedAt: i.publishedAt,
          outcome: i.outcome,
          seenAt: now,
        })),
      )
      .onConflictDoNothing({ target: [feedItems.feedId, feedItems.itemKey] })
      .returning({ key: feedItems.itemKey });
    return new Set(rows.map((r) => r.key));
  }

  /** Which of these keys the feed has seen already. */
  async known(feedId: string, keys: readonly string[]): Promise<Set<string>> {
    if (!keys.length) return new Set();
    const rows = await this.#db
      .select({ key: feedItems.itemKey })
      .from(feedItems)
      .where(and(eq(feedItems.feedId, feedId), sql`${feedItems.itemKey} in ${keys}`));
    return new Set(rows.map((r) => r.key));
  }

  async settleItem(
    feedId: string,
    key: string,
    outcome: 'posted' | 'failed',
    detail: string | null,
    refs: Record<string, unknown>[],
  ): Promise<void> {
    await this.#db
      .update(feedItems)
      .set({ outcome, detail, refs })
      .where(and(eq(feedItems.feedId, feedId), eq(feedItems.itemKey, key)));
  }

  async items(workspaceId: string, feedId: string, limit: number): Promise<FeedItemRow[]> {
    return this.#db
      .select()
      .from(feedItems)
      .where(and(eq(feedItems.workspaceId, workspaceId), eq(feedItems.feedId, feedId)))
      .orderBy(desc(feedItems.seenAt), desc(feedItems.publishedAt))
      .limit(limit);
  }
}

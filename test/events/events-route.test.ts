// The events outbox and GET /events: an event commits with its transaction or not at all; filters, cursor
// paging, workspace isolation and the key's network scope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { EventStore, recordEvent, type TargetSummary } from '../../src/events/index.ts';

let h: Harness;
let a: TestUser;
let b: TestUser;
const POST = '11111111-1111-4111-8111-111111111111';

const target = (platform: string, state: string): TargetSummary => ({
  target_id: '22222222-2222-4222-8222-222222222222',
  platform,
  platform_user_id: 'u1',
  state,
  platform_post_id: state === 'published' ? 'p1' : null,
  permalink: null,
  error_code: state === 'failed' ? 'server_error' : null,
  error_message: state === 'failed' ? 'The network answered 500' : null,
  attempts: 1,
});

const list = (u: TestUser, qs = '', headers = asUser(u)) => h.req({ method: 'GET', url: `/events${qs}`, headers });

beforeAll(async () => {
  h = await createHarness();
  a = await h.signup();
  b = await h.signup();
  const db = h.ctx.database.db;
  await db.transaction(async (tx) => {
    await recordEvent(
      tx,
      a.workspaceId,
      'post.published',
      {
        post_id: POST,
        post_type: 'text',
        scheduled_post_id: null,
        error_message: null,
        targets: [target('linkedin', 'published')],
      },
      { at: new Date('2026-11-01T10:00:00Z') },
    );
    await recordEvent(
      tx,
      a.workspaceId,
      'post.failed',
      {
        post_id: POST,
        post_type: 'text',
        scheduled_post_id: null,
        error_message: null,
        targets: [target('threads', 'failed')],
      },
      { at: new Date('2026-11-02T10:00:00Z') },
    );
    await recordEvent(
      tx,
      a.workspaceId,
      'account.needs_reconnect',
      {
        platform: 'threads',
        platform_user_id: 'u1',
        display_name: null,
        reason: 'token revoked',
        expires_at: null,
      },
      { at: new Date('2026-11-03T10:00:00Z') },
    );
    await recordEvent(
      tx,
      a.workspaceId,
      'credits.low',
      { credit_type: 'posts', used: 90, limit: 100, remaining: 10, period_start: '2026-11-01T00:00:00.000Z' },
      { at: new Date('2026-11-04T10:00:00Z') },
    );
    await recordEvent(tx, b.workspaceId, 'post.scheduled', {
      scheduled_post_id: POST,
      platform: 'linkedin',
      platform_user_id: null,
      post_type: 'text',
      scheduled_time: '2026-12-01T00:00:00.000Z',
    });
  });
});
afterAll(async () => h?.close());

type Page = {
  events: { id: string; type: string; platform: string | null; post_id: string | null }[];
  next_cursor: string | null;
};

describe('GET /events', () => {
  it("lists the workspace's own events, newest first, never another workspace's", async () => {
    const res = await list(a);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as Page;
    expect(page.events.map((e) => e.type)).toEqual([
      'credits.low',
      'account.needs_reconnect',
      'post.failed',
      'post.published',
    ]);
    expect(page.events[2]).toMatchObject({ post_id: POST, platform: 'threads' });
    expect(page.next_cursor).toBeNull();
    const other = (await list(b)).json() as Page;
    expect(other.events.map((e) => e.type)).toEqual(['post.scheduled']);
  });

  it('filters by type (names and families), time, post and network', async () => {
    const types = (qs: string) => list(a, qs).then((r) => (r.json() as Page).events.map((e) => e.type));
    expect(await types('?type=post.failed,credits.low')).toEqual(['credits.low', 'post.failed']);
    expect(await types('?type=post.*')).toEqual(['post.failed', 'post.published']);
    expect(await types('?since=2026-11-02T00:00:00Z&until=2026-11-03T10:00:00Z')).toEqual(['post.failed']);
    expect(await types(`?post_id=${POST}&order=asc`)).toEqual(['post.published', 'post.failed']);
    expect(await types('?platform=threads')).toEqual(['account.needs_reconnect', 'post.failed']);
  });

  it('pages with an opaque cursor in both orders', async () => {
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const res = await list(a, `?order=asc&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      const page = res.json() as Page;
      seen.push(...page.events.map((e) => e.type));
      cursor = page.next_cursor;
    }
    expect(seen).toEqual(['post.published', 'post.failed', 'account.needs_reconnect', 'credits.low']);
    const first = (await list(a, '?limit=2')).json() as Page;
    const second = (await list(a, `?limit=2&cursor=${first.next_cursor}`)).json() as Page;
    expect(second.events.map((e) => e.type)).toEqual(['post.failed', 'post.published']);
  });

  it('rejects unknown types, foreign cursors and unknown networks', async () => {
    expect((await list(a, '?type=post.exploded')).statusCode).toBe(422);
    expect((await list(a, '?cursor=bm9wZQ')).statusCode).toBe(422);
    expect((await list(a, '?platform=myspace')).statusCode).toBe(400);
  });

  it("a network-scoped key sees only its networks' events", async () => {
    const key = await h.createKey(a, 'threads');
    const page = (await list(a, '', { authorization: `Bearer ${key}` } as never)).json() as Page;
    expect(page.events.map((e) => e.type)).toEqual(['account.needs_reconnect', 'post.failed']);
    expect((await list(a, '?platform=linkedin', { authorization: `Bearer ${key}` } as never)).statusCode).toBe(403);
  });
});

describe('the outbox', () => {
  it('an event rolled back with its transaction never appears', async () => {
    await expect(
      h.ctx.database.db.transaction(async (tx) => {
        await recordEvent(tx, b.workspaceId, 'media.processed', {
          media_id: POST,
          kind: 'image',
          status: 'ready',
          error: null,
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const page = (await list(b, '?type=media.processed')).json() as Page;
    expect(page.events).toEqual([]);
  });

  it('the dispatcher claims each event once, oldest first', async () => {
    const db = h.ctx.database.db;
    const now = new Date();
    const first = await db.transaction((tx) => EventStore.claimForDispatch(tx, 3, now));
    const rest = await db.transaction((tx) => EventStore.claimForDispatch(tx, 100, now));
    const again = await db.transaction((tx) => EventStore.claimForDispatch(tx, 100, now));
    expect(first).toHaveLength(3);
    expect(first.map((e) => e.seq)).toEqual([...first.map((e) => e.seq)].sort((x, y) => x - y));
    expect(Math.max(...first.map((e) => e.seq))).toBeLessThan(Math.min(...rest.map((e) => e.seq)));
    expect(new Set([...first, ...rest].map((e) => e.id)).size).toBe(first.length + rest.length);
    expect(again).toEqual([]);
  });
});

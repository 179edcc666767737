// Pinterest's own rules on the read side, against its simulator: pins per board or for the whole account with
// page_size/bookmark paging, saves from the pin analytics and that endpoint's 90-day window, and deleting a pin.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Engagement } from '../../../src/platforms/engagement.ts';
import type { PublishDestination } from '../../../src/platforms/publishing.ts';
import type { AccountIdentity, PlatformAdapter, TokenSet } from '../../../src/platforms/types.ts';
import { startSandbox } from '../../helpers/sandbox.ts';
import type { TestSandbox } from '../../helpers/sandbox.ts';
import { expectPlatformError } from '../helpers/oauth-flow.ts';
import { memoryJournal, publisherOf } from '../helpers/publish-fixtures.ts';
import { PROFILES } from '../contract/profiles.ts';
import { publishThrough, sampleRequest } from '../contract/sample-post.ts';

const profile = PROFILES.pinterest;
let sb: TestSandbox;
let adapter: PlatformAdapter;
let engagement: Engagement;
let tokens: TokenSet;
let account: AccountIdentity;
let boards: PublishDestination[];

async function publish(text: string, board: PublishDestination, n: number): Promise<string> {
  const req = {
    ...(await sampleRequest(sb, profile, account, 'image', text, `tgt_pin_${n}`)),
    description: text,
    destination: board,
  };
  const out = await publishThrough(sb, publisherOf(adapter), () => tokens, req, memoryJournal());
  if (out.state !== 'published') throw new Error('the pin did not publish');
  return out.postId;
}

const api = (path: string) =>
  fetch(sb.url('pinterest', path), { headers: { authorization: `Bearer ${tokens.accessToken}` } });
const day = (offsetDays: number) => new Date(sb.nowMs() + offsetDays * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  await sb.configure({ processingMs: 0 });
  adapter = profile.adapter(sb);
  engagement = adapter.engagement!;
  tokens = await profile.connect(sb, adapter);
  account = await adapter.fetchAccount(tokens);
  boards = account.destinations.filter((d) => d.kind === 'board').map((d) => ({ kind: 'board', id: d.id }));
  expect(boards.length).toBeGreaterThanOrEqual(2);
});

describe('pinterest engagement: pins, boards and analytics', () => {
  it("lists one board's pins or the whole account's, newest first, with the board as the source", async () => {
    const a = await publish('On the first board', boards[0]!, 1);
    sb.advance(60);
    const b = await publish('On the second board', boards[1]!, 2);
    expect((await engagement.listPosts(tokens, { limit: 10 })).map((p) => p.postId)).toEqual([b, a]);
    const first = await engagement.listPosts(tokens, { destination: boards[0], limit: 10 });
    expect(first.map((p) => [p.postId, p.sourcePageId, p.commentary, p.permalink])).toEqual([
      [a, boards[0]!.id, 'On the first board', sb.url('pinterest', `/pin/${a}/`)],
    ]);
    expect(first[0]!.images[0]?.url).toMatch(/^https:\/\/i\.pinimg\.com\//);
    await expectPlatformError(
      engagement.listPosts(tokens, { destination: { kind: 'board', id: '999999999999999999' }, limit: 10 }),
      'not_found',
    );
    const reads = (await sb.state('pinterest')).requests.filter((r) => r.path.endsWith('/pins') && r.method === 'GET');
    expect(reads.map((r) => r.query)).toContainEqual(expect.objectContaining({ pin_metrics: 'true', page_size: '10' }));
  });

  it('pages with page_size (1–250) and an opaque bookmark', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) {
      ids.push(await publish(`Pin ${n}`, boards[0]!, n));
      sb.advance(60);
    }
    const first = (await (await api('/v5/pins?page_size=2')).json()) as {
      items: { id: string }[];
      bookmark: string | null;
    };
    expect(first.items.map((i) => i.id)).toEqual([ids[2], ids[1]]);
    expect(first.bookmark).toEqual(expect.any(String));
    const second = (await (await api(`/v5/pins?page_size=2&bookmark=${first.bookmark!}`)).json()) as {
      items: { id: string }[];
      bookmark: string | null;
    };
    expect([second.items.map((i) => i.id), second.bookmark]).toEqual([[ids[0]], null]);
    expect((await api('/v5/pins?page_size=251')).status).toBe(400);
    expect((await engagement.listPosts(tokens, { limit: 2 })).map((p) => p.postId)).toEqual([ids[2], ids[1]]);
  });

  it('saves come from the pin analytics, asked for the last 90 days; older windows and missing metric types are refused', async () => {
    const id = await publish('Saved pin', boards[0]!, 1);
    await sb.control('POST', '_seed', {
      platform: 'pinterest',
      post_id: id,
      metrics: { shares: 5, likes: 3, impressions: 40, comments: 2 },
    });
    const post = await engagement.getPost(tokens, { postId: id });
    expect(post?.metrics).toEqual({ likes: 3, comments: 2, shares: 5, impressions: 40 });
    const asked = (await sb.state('pinterest')).requests.find((r) => r.path.endsWith(`/v5/pins/${id}/analytics`));
    expect(asked?.query).toMatchObject({
      start_date: day(-90),
      end_date: day(0),
      metric_types: expect.stringContaining('SAVE'),
    });

    const analytics = (q: string) => api(`/v5/pins/${id}/analytics?${q}`);
    expect((await analytics(`start_date=${day(-91)}&end_date=${day(0)}&metric_types=SAVE`)).status).toBe(400);
    expect((await analytics(`start_date=${day(-10)}&end_date=${day(0)}`)).status).toBe(400);
    expect((await analytics(`start_date=${day(-10)}&end_date=${day(0)}&metric_types=LIKES`)).status).toBe(400);
    const ok = (await (
      await analytics(`start_date=${day(-2)}&end_date=${day(0)}&metric_types=SAVE,IMPRESSION`)
    ).json()) as { all: { summary_metrics: Record<string, number>; daily_metrics: unknown[] } };
    expect(ok.all.summary_metrics).toEqual({ SAVE: 5, IMPRESSION: 40 });
    expect(ok.all.daily_metrics).toHaveLength(3);
  });

  it('has no comment access and says so; deletes pins, and a deleted pin reads as null', async () => {
    expect(engagement.comments).toBeUndefined();
    expect(engagement.commentsUnavailable).toMatch(/no access to comments/);
    const id = await publish('Short-lived', boards[0]!, 1);
    await engagement.deletePost!(tokens, { postId: id });
    expect(await engagement.getPost(tokens, { postId: id })).toBeNull();
    expect((await engagement.listPosts(tokens, { limit: 10 })).map((p) => p.postId)).toEqual([]);
  });
});

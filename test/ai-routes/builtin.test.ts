// The four AI routes with no model configured: the built-in provider answers over REST, within every
// network's limit, labelled as such; the workspace named in the query, credits, bad input.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_LABEL } from '../../src/ai/builtin/index.ts';
import { captionLimit } from '../../src/ai/builtin/copy.ts';
import { fits } from '../../src/ai/builtin/text.ts';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { mp4, storagePath, upload } from '../media-routes/helpers.ts';

let h: Harness;
let owner: TestUser;
let key: string;
const IDEA =
  'Our bakery on Elm Street opens a second oven on Saturday. Fresh sourdough every hour from 7am, and the first hundred loaves are free.';

beforeAll(async () => {
  h = await createHarness();
  owner = await h.signup();
  key = await h.createKey(owner, 'full');
});
afterAll(() => h?.close());

const post = (
  url: string,
  payload: unknown,
  headers: Record<string, string> = { 'x-api-key': key },
  ws = owner.workspaceId,
) => h.req({ method: 'POST', url: `${url}?workspace_id=${ws}`, headers, payload: payload as object });
const aiUsed = () => h.ctx.credits.used(owner.workspaceId, 'ai_credits');

describe('POST /unified/content/generate (built-in provider)', () => {
  it('writes copy for all eight networks, each within its limit, and says who wrote it; 2 credits per network', async () => {
    const before = await aiUsed();
    const res = await post('/unified/content/generate', { idea: IDEA, platforms: ['all'] });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, error: null });
    expect(body.message).toContain(BUILTIN_LABEL);
    const slugs = h.ctx.platforms.networks.map((n) => n.slug);
    expect(Object.keys(body.data).sort()).toEqual([...slugs].sort());
    for (const n of h.ctx.platforms.networks) {
      const content = body.data[n.slug].content as string;
      expect(content.length, n.slug).toBeGreaterThan(0);
      expect(fits(content, captionLimit(n)), `${n.slug}: ${content}`).toBe(true);
    }
    expect(new Set(Object.values(body.data).map((d) => (d as { content: string }).content)).size).toBe(slugs.length);
    expect((await aiUsed()) - before).toBe(2 * slugs.length);
  });

  it('takes idea_by_platform, narrows all with target_platforms, and works with a session and the query alone', async () => {
    const res = await post(
      '/unified/content/generate',
      {
        platforms: ['all'],
        target_platforms: ['threads', 'bluesky'],
        idea_by_platform: { threads: 'Threads only: the oven story', bluesky: 'Bluesky only: the oven story' },
      },
      { authorization: `Bearer ${owner.token}` },
    );
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().data).sort()).toEqual(['bluesky', 'threads']);
    expect(res.json().data.threads.content).toContain('Threads only');
  });

  it('refuses bad requests before spending anything: 400 for an empty body, no platforms, an unknown network, no idea', async () => {
    const before = await aiUsed();
    for (const payload of [
      {},
      { idea: IDEA },
      { idea: IDEA, platforms: [] },
      { idea: IDEA, platforms: ['myspace'] },
      { platforms: ['linkedin'] },
      { platforms: ['linkedin', 'threads'], idea_by_platform: { linkedin: 'x' } },
    ]) {
      const res = await post('/unified/content/generate', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toHaveProperty('detail');
    }
    expect(await aiUsed()).toBe(before);
  });

  it('workspace_id in the query must be the caller’s workspace; without it, the key’s (or X-Workspace-Id’s) workspace is meant', async () => {
    const bare = (headers: Record<string, string>) =>
      h.req({
        method: 'POST',
        url: '/unified/content/generate',
        headers,
        payload: { idea: IDEA, platforms: ['linkedin'] },
      });
    const byKey = await bare({ 'x-api-key': key });
    expect(byKey.statusCode).toBe(200);
    expect(byKey.json().data.linkedin.content.length).toBeGreaterThan(0);
    expect(
      (await bare({ authorization: `Bearer ${owner.token}`, 'x-workspace-id': owner.workspaceId })).statusCode,
    ).toBe(200);
    const none = await bare({ authorization: `Bearer ${owner.token}` });
    expect(none.statusCode).toBe(422);
    expect(none.json().detail[0]).toMatchObject({ loc: ['query', 'workspace_id'], type: 'missing' });
    const malformed = await post(
      '/unified/content/generate',
      { idea: IDEA, platforms: ['linkedin'] },
      { 'x-api-key': key },
      'not-a-uuid',
    );
    expect(malformed.statusCode).toBe(422);
    const stranger = await h.signup();
    const other = await post(
      '/unified/content/generate',
      { idea: IDEA, platforms: ['linkedin'] },
      { 'x-api-key': key },
      stranger.workspaceId,
    );
    expect(other.statusCode).toBe(403);
    expect(other.json().detail).toBe('workspace does not match API key');
    const header = await post(
      '/unified/content/generate',
      { idea: IDEA, platforms: ['linkedin'] },
      { authorization: `Bearer ${owner.token}`, 'x-workspace-id': owner.workspaceId },
      stranger.workspaceId,
    );
    expect(header.statusCode).toBe(403);
  });

  it('a key scoped to one network: "all" means its networks, another network named is 403', async () => {
    const scoped = await h.createKey(owner, 'linkedin');
    const all = await post('/unified/content/generate', { idea: IDEA, platforms: ['all'] }, { 'x-api-key': scoped });
    expect(all.statusCode).toBe(200);
    expect(Object.keys(all.json().data)).toEqual(['linkedin']);
    const other = await post(
      '/unified/content/generate',
      { idea: IDEA, platforms: ['tiktok'] },
      { 'x-api-key': scoped },
    );
    expect(other.statusCode).toBe(403);
  });

  it('402 names the credit type, what is required and what is available, and spends nothing', async () => {
    const u = await h.signup();
    const k = await h.createKey(u, 'full');
    const ws = (await h.ctx.workspaces.byId(u.workspaceId))!;
    const limit = h.ctx.credits.limitFor(ws.planId, 'ai_credits')!;
    await h.ctx.credits.spend({
      workspaceId: u.workspaceId,
      planId: ws.planId,
      type: 'ai_credits',
      amount: limit - 3,
      reason: 'test',
    });
    const res = await post(
      '/unified/content/generate',
      { idea: IDEA, platforms: ['linkedin', 'threads'] },
      { 'x-api-key': k },
      u.workspaceId,
    );
    expect(res.statusCode).toBe(402);
    expect(res.json().detail).toMatchObject({
      error: 'insufficient_credits',
      credit_type: 'ai_credits',
      required: 4,
      available: 3,
    });
    expect(await h.ctx.credits.used(u.workspaceId, 'ai_credits')).toBe(limit - 3);
  });

  it('streams the same copy as server-sent events, ending with each network’s final copy', async () => {
    const res = await post('/unified/content/generate/stream', { idea: IDEA, platforms: ['linkedin', 'bluesky'] });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    const events = res.body
      .trim()
      .split('\n\n')
      .map((block) => {
        const [ev, data] = block.split('\n');
        return { event: ev!.slice('event: '.length), data: JSON.parse(data!.slice('data: '.length)) };
      });
    expect(events.at(-1)).toMatchObject({ event: 'end', data: { success: true } });
    for (const platform of ['linkedin', 'bluesky']) {
      const pieces = events
        .filter((e) => e.event === 'delta' && e.data.platform === platform)
        .map((e) => e.data.text)
        .join('');
      const done = events.find((e) => e.event === 'done' && e.data.platform === platform);
      expect(done?.data.content).toBe(pieces);
    }
  });
});

describe('POST /unified/image/generate (built-in cards)', () => {
  it('stores one card per target in its size, usable as media; x is twitter; 5 credits per network', async () => {
    const before = await aiUsed();
    const res = await post('/unified/image/generate', { content: IDEA, platforms: ['linkedin', 'x'] });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(Object.keys(data).sort()).toEqual(['linkedin', 'twitter']);
    expect(data.linkedin.image_prompt).toContain('no image model');
    for (const [target, size] of [
      ['linkedin', [1200, 627]],
      ['twitter', [1600, 900]],
    ] as const) {
      const file = await h.req({ method: 'GET', url: storagePath(data[target].image_url) });
      expect(file.statusCode).toBe(200);
      const meta = await sharp(file.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual(size);
      const item = await h.req({
        method: 'GET',
        url: `/media/${data[target].media_id}`,
        headers: { 'x-api-key': key },
      });
      expect(item.statusCode).toBe(200);
    }
    expect((await aiUsed()) - before).toBe(10);
  });
});

describe('copy from media (built-in analysis)', () => {
  it('reads this workspace’s own image from storage: the card’s words come back as copy', async () => {
    const card = await post('/unified/image/generate', {
      content: 'Sourdough Saturday at the bakery',
      platforms: ['linkedin'],
    });
    const url = card.json().data.linkedin.image_url as string;
    const res = await post('/unified/image-to-content/generate', { image_url: url, platform: 'linkedin' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.content).toMatch(/sourdough/i);
    const all = await post('/unified/image-to-content/generate', {
      image_url: url,
      platform: 'all',
      target_platforms: ['threads', 'pinterest'],
    });
    expect(Object.keys(all.json().data).sort()).toEqual(['pinterest', 'threads']);
  });

  it('refuses another workspace’s stored media and addresses the address policy forbids, spending nothing', async () => {
    const stranger = await h.signup();
    const sk = await h.createKey(stranger, 'full');
    const theirs = await post(
      '/unified/image/generate',
      { content: 'Not yours', platforms: ['linkedin'] },
      { 'x-api-key': sk },
      stranger.workspaceId,
    );
    const before = await aiUsed();
    const res = await post('/unified/image-to-content/generate', {
      image_url: theirs.json().data.linkedin.image_url,
      platform: 'linkedin',
    });
    expect(res.statusCode).toBe(422);
    const local = await post('/unified/image-to-content/generate', {
      image_url: 'http://127.0.0.1:9/a.png',
      platform: 'linkedin',
    });
    expect(local.statusCode).toBe(422);
    expect(JSON.stringify(local.json().detail)).toMatch(/refused/i);
    expect(await aiUsed()).toBe(before);
  });

  it('writes copy from a video: its file name and facts', async () => {
    const up = await upload(h, { 'x-api-key': key }, [
      { name: 'media_type', value: 'video' },
      { name: 'media', filename: 'sourdough-oven-opening.mp4', data: await mp4(), type: 'video/mp4' },
    ]);
    expect(up.statusCode).toBe(200);
    const url = up.json().public_url as string;
    expect(url).toEqual(expect.any(String));
    const res = await post('/unified/video-to-content/generate', { video_url: url, platform: 'youtube' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.content).toMatch(/sourdough oven opening/i);
  });
});

// publish and the AI tools in-process against the sandbox: posts really reach the simulators, overrides come as a
// JSON string checked with the post routes' schemas, AI tools spend the credits REST spends (built-in provider), and
// key scopes and plan gates hold as on REST.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { RESTRICTED_PLAN } from '../helpers/security-matrix.ts';
import { endToEnd } from '../publishing/end-to-end.ts';
import { detailText, toolRunner } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ sandbox: true, clock: () => new Date() });
  await fetch(`${h.url}/sandbox/_config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ processingMs: 0 }),
  });
});
afterAll(async () => h?.close());

const { postsOf, media } = endToEnd(() => h);
const { call, fails } = toolRunner(() => h);
const aiUsed = (u: TestUser) => h.ctx.credits.used(u.workspaceId, 'ai_credits');
const postsUsed = (u: TestUser) => h.ctx.credits.used(u.workspaceId, 'posts');

describe('publish', () => {
  let u: TestUser;
  beforeAll(async () => {
    u = await h.signup();
    await connect(h, u, 'linkedin');
    await connect(h, u, 'bluesky');
  });

  it('publishes to several networks now, with per-network text from platform_overrides_json', async () => {
    const before = await postsUsed(u);
    const res = await call(u, 'publish', {
      platforms: ['linkedin', 'bluesky'],
      default_text: 'Tool post for everyone',
      platform_overrides_json: JSON.stringify({ linkedin: { linkedin_text: 'Tool post, LinkedIn edition' } }),
    });
    expect(res, JSON.stringify(res)).toMatchObject({ success: true, post_type: 'text' });
    const results = res.results as { platform: string; success: boolean; post: { post_id: string } }[];
    expect(results.map((r) => [r.platform, r.success])).toEqual([
      ['linkedin', true],
      ['bluesky', true],
    ]);
    expect((await postsOf('linkedin')).some((p) => p.text === 'Tool post, LinkedIn edition')).toBe(true);
    expect((await postsOf('bluesky')).some((p) => p.text === 'Tool post for everyone')).toBe(true);
    expect((await postsUsed(u)) - before).toBe(2);
  });

  it('takes the overrides as a list of objects naming their network too, and infers the post type from the media', async () => {
    const image = await media(u, 'jpeg');
    const res = await call(u, 'publish', {
      platforms: 'bluesky',
      default_text: 'Picture from a tool',
      default_image_id: image,
      platform_overrides_json: JSON.stringify([{ platform: 'bluesky', alt_text: 'A blue square' }]),
    });
    expect(res, JSON.stringify(res)).toMatchObject({
      success: true,
      post_type: 'image',
      post: { post_id: expect.any(String) },
    });
    const posted = (await postsOf('bluesky')).find((p) => p.text === 'Picture from a tool');
    expect(JSON.stringify(posted)).toContain('A blue square');
  });

  it('a malformed platform_overrides_json is a tool error naming the field, and nothing is posted', async () => {
    const count = async () => (await postsOf('linkedin')).length + (await postsOf('bluesky')).length;
    const before = await count();
    const cases: [string, string][] = [
      ['{"linkedin": {"linkedin_text": "unterminated', 'platform_overrides_json: not valid JSON'],
      ['"just a string"', 'platform_overrides_json: must be a JSON object'],
      ['{"linkedin": {"linkedin_text": 5}}', 'platform_overrides_json.linkedin.linkedin_text:'],
      ['{"myspace": {}}', 'platform_overrides_json.myspace: not a network with overrides'],
      ['{"instagram": {"instagram_text": "x"}}', 'platform_overrides_json.instagram: instagram is not in platforms'],
      ['[{"text": "no platform"}]', 'platform_overrides_json.0:'],
      [
        '{"bluesky": {"bluesky_text": "x"}}',
        "platform_overrides_json.bluesky.bluesky_text: bluesky has no field 'bluesky_text'. Its fields: alt_text",
      ],
    ];
    for (const [json, says] of cases) {
      const err = await fails(u, 'publish', {
        platforms: ['linkedin', 'bluesky'],
        default_text: 'Never posted',
        platform_overrides_json: json,
      });
      expect(err.code, json).toBe('bad_request');
      expect(detailText(err), json).toContain(says);
      expect((err.detail as { field: string }).field, json).toMatch(/^platform_overrides_json/);
    }
    expect(await count()).toBe(before);
  });

  it('scope "pages" needs LinkedIn page ids', async () => {
    const err = await fails(u, 'publish', { platforms: ['linkedin'], default_text: 'Pages only', scope: 'pages' });
    expect((err.detail as { field: string }).field).toBe('platform_overrides_json.linkedin.linkedin_page_ids');
  });

  it('a key scoped to linkedin cannot publish to bluesky, and nothing is posted anywhere', async () => {
    const key = await h.createKey(u, 'linkedin');
    const before = (await postsOf('linkedin')).length;
    const err = await fails({ key }, 'publish', { platforms: ['linkedin', 'bluesky'], default_text: 'Out of scope' });
    expect(err.code).toBe('scope_denied');
    expect(detailText(err)).toContain("'bluesky'");
    expect((await postsOf('linkedin')).length).toBe(before);
    expect((await call({ key }, 'publish', { platforms: ['linkedin'], default_text: 'In scope' })).success).toBe(true);
  });

  it('draft=true saves drafts and scheduled_time schedules, as the post routes do', async () => {
    const drafted = await call(u, 'publish', {
      platforms: ['linkedin'],
      default_text: 'Drafted by a tool',
      draft: true,
    });
    expect(drafted).toMatchObject({
      success: true,
      message: 'Saved as drafts',
      drafts: [{ platform: 'linkedin', status: 'draft' }],
    });
    const at = new Date(Date.now() + 2 * 3600_000).toISOString();
    const scheduled = await call(u, 'publish', {
      platforms: ['bluesky'],
      default_text: 'Scheduled by a tool',
      scheduled_time: at,
    });
    expect(scheduled).toMatchObject({ success: true, message: 'Scheduled', scheduled: [{ platform: 'bluesky' }] });
    const queue = await call(u, 'get_queued_posts', {});
    expect((queue.drafts as { default_text: string }[]).map((d) => d.default_text)).toContain('Drafted by a tool');
    expect(
      (queue.scheduled_posts as { platform: string; status: string }[]).filter((e) => e.platform === 'bluesky'),
    ).toEqual([expect.objectContaining({ status: 'scheduled' })]);
    expect(
      (await fails(u, 'publish', { platforms: ['bluesky'], default_text: 'x', scheduled_time: 'tomorrow' })).code,
    ).toBe('validation');
  });

  it('with the approval setting on, a tool post waits as a draft pending approval and reaches no network', async () => {
    const owner = await h.signup();
    await connect(h, owner, 'bluesky');
    const set = await h.req({
      method: 'PATCH',
      url: `/workspaces/${owner.workspaceId}`,
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { tool_posts_need_approval: true },
    });
    expect(set.statusCode, set.body).toBe(200);
    const before = (await postsOf('bluesky')).length;
    const res = await call(
      owner,
      'publish',
      { platforms: ['bluesky'], default_text: 'Needs a human first' },
      { surface: 'mcp' },
    );
    expect(res).toMatchObject({
      success: true,
      pending_approval: true,
      drafts: [{ platform: 'bluesky', status: 'pending_approval' }],
    });
    expect((await postsOf('bluesky')).length).toBe(before);
    const held = await call(owner, 'get_queued_posts', { status: 'pending_approval' });
    expect(held).not.toHaveProperty('scheduled_posts');
    expect((held.drafts as { default_text: string; status: string }[]).map((d) => [d.default_text, d.status])).toEqual([
      ['Needs a human first', 'pending_approval'],
    ]);
  });

  it('plan gates: publishing, drafts and scheduling need their features', async () => {
    const other = await h.signup();
    await connect(h, other, 'bluesky');
    await h.setPlan(other.workspaceId, 'free');
    expect(
      detailText(await fails(other, 'publish', { platforms: ['bluesky'], default_text: 'x', draft: true })),
    ).toContain('drafts_enabled');
    expect(
      detailText(
        await fails(other, 'publish', {
          platforms: ['bluesky'],
          default_text: 'x',
          scheduled_time: new Date(Date.now() + 3600_000).toISOString(),
        }),
      ),
    ).toContain('scheduling_enabled');
    await h.setPlan(other.workspaceId, RESTRICTED_PLAN);
    expect(detailText(await fails(other, 'publish', { platforms: ['bluesky'], default_text: 'x' }))).toContain(
      'publish_enabled',
    );
  });
});

describe('AI tools (built-in provider)', () => {
  let u: TestUser;
  beforeAll(async () => {
    u = await h.signup();
    await connect(h, u, 'bluesky');
  });

  it('idea_to_content writes copy per network and spends 2 AI credits per network', async () => {
    const before = await aiUsed(u);
    const res = await call(u, 'idea_to_content', {
      platforms: ['linkedin', 'threads'],
      idea: 'A bakery opens a second oven on Saturday; the first hundred loaves are free.',
    });
    expect(res.success).toBe(true);
    const data = res.data as Record<string, { content: string }>;
    expect(Object.keys(data).sort()).toEqual(['linkedin', 'threads']);
    expect(data.linkedin!.content.length).toBeGreaterThan(0);
    expect((await aiUsed(u)) - before).toBe(4);
    expect((await fails(u, 'idea_to_content', { platforms: ['linkedin'] })).code).toBe('bad_request');
    expect((await fails(u, 'idea_to_content', { platforms: 'myspace', idea: 'x' })).code).toBe('bad_request');
  });

  it('a key scoped to bluesky cannot generate for linkedin, and "all" means its own networks', async () => {
    const key = await h.createKey(u, 'bluesky');
    const before = await aiUsed(u);
    const err = await fails({ key }, 'idea_to_content', { platforms: 'linkedin,bluesky', idea: 'Scoped idea' });
    expect(err.code).toBe('scope_denied');
    expect(await aiUsed(u)).toBe(before);
    const all = await call({ key }, 'idea_to_content', { platforms: 'all', idea: 'Scoped idea' });
    expect(Object.keys(all.data as object)).toEqual(['bluesky']);
  });

  it('content_to_image makes a stored image that analyze_media reads, media_to_content writes about, and publish posts', async () => {
    const before = await aiUsed(u);
    const img = await call(u, 'content_to_image', {
      content: 'Fresh sourdough every hour from 7am',
      platforms: ['bluesky'],
    });
    expect(img).toMatchObject({
      success: true,
      image_url: expect.stringMatching(/^http/),
      media_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect((await aiUsed(u)) - before).toBe(5);

    const seen = await call(u, 'analyze_media', { url: img.image_url, media_type: 'image' });
    expect(seen).toMatchObject({
      success: true,
      media_type: 'image',
      width: expect.any(Number),
      height: expect.any(Number),
      format: expect.any(String),
    });
    expect((seen.width as number) > 0).toBe(true);

    const copy = await call(u, 'media_to_content', {
      media_url: img.image_url,
      media_type: 'image',
      platform: 'bluesky',
    });
    expect(copy).toMatchObject({ success: true, data: { content: expect.any(String) } });

    const posted = await call(u, 'publish', {
      platforms: ['bluesky'],
      default_text: (copy.data as { content: string }).content,
      default_image_id: img.media_id,
    });
    expect(posted, JSON.stringify(posted)).toMatchObject({ success: true, post_type: 'image' });
  });

  it('analyze_media refuses a private address through the media import policy', async () => {
    const err = await fails(u, 'analyze_media', { url: 'https://127.0.0.1/x.png', media_type: 'image' });
    expect(err.status).toBe(422);
    expect(detailText(err)).toContain('the host is not a public internet address');
    expect(JSON.stringify((err.detail as { loc: unknown }[])[0]!.loc)).toBe('["body","url"]');
  });

  it('plan gate: the AI tools need ai_composer_enabled', async () => {
    const other = await h.signup();
    await h.setPlan(other.workspaceId, RESTRICTED_PLAN);
    for (const [name, args] of [
      ['idea_to_content', { platforms: ['linkedin'], idea: 'x' }],
      ['content_to_image', { platforms: ['linkedin'], content: 'x' }],
      ['media_to_content', { media_url: 'https://example.com/a.png', media_type: 'image', platform: 'linkedin' }],
      ['analyze_media', { url: 'https://example.com/a.png', media_type: 'image' }],
    ] as const) {
      const err = await fails(other, name, args);
      expect(err.code, name).toBe('plan_required');
      expect(detailText(err)).toContain('ai_composer_enabled');
    }
  });
});

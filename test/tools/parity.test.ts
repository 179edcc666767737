// Tools and their REST twins take the same arguments the same way: every tool with a REST twin is called through the
// invoker, and the twin over HTTP, on the same inputs (good and bad), against the sandbox. An answer must match the
// twin's (per network, without the moments of reading), and a refusal must be one on both sides with the same message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { toolRunner, type As } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    sandbox: true,
    clock: () => new Date(),
    env: { HERALD_POSTS_FRESH_SECONDS: '3600', HERALD_COMMENTS_FRESH_SECONDS: '3600' },
  });
});
afterAll(async () => h?.close());

const { outcome } = toolRunner(() => h);

type Args = Record<string, string | string[]>;
interface Twin {
  tool: string;
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  /** The arguments as the tool takes them (a list is a repeated query parameter on REST). */
  args: Args;
  /** Where REST reads them: the query (default) or the JSON body. */
  in?: 'query' | 'body';
  /** REST's spelling of the same input, where its names differ from the tool's. */
  rest?: Args;
}

const query = (args: Args) =>
  new URLSearchParams(
    Object.entries(args).flatMap(([k, v]): [string, string][] => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]])),
  ).toString();

/** When an answer was read and whether it was fetched for it (the first of two calls refreshes) differ; nothing else may. */
const VOLATILE = new Set(['last_updated', 'last_refreshed_at', 'source']);
const stable = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(stable)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([k]) => !VOLATILE.has(k))
            .map(([k, x]) => [k, stable(x)]),
        )
      : v;

/** REST's refusal as the one line a model reads: the detail's message (FastAPI-style bodies). */
function restMessage(body: { detail?: unknown }): string {
  const d = body.detail;
  if (typeof d === 'string') return d;
  if (d && typeof d === 'object' && typeof (d as { message?: unknown }).message === 'string')
    return (d as { message: string }).message;
  return JSON.stringify(d);
}

async function both(as: As, headers: Record<string, string>, twin: Twin) {
  const tool = await outcome(as, twin.tool, twin.args);
  const restArgs = twin.rest ?? twin.args;
  const res =
    twin.in === 'body'
      ? await h.req({ method: twin.method, url: twin.url, headers, payload: restArgs })
      : await h.req({ method: twin.method, url: `${twin.url}?${query(restArgs)}`, headers });
  return { tool, res };
}

/** Same outcome: both answer (the same networks with the same slices), or both refuse with the same message. */
async function expectParity(as: As, headers: Record<string, string>, twin: Twin, networks: string[] = []) {
  const { tool, res } = await both(as, headers, twin);
  const label = `${twin.tool} ${JSON.stringify(twin.args)}: REST ${res.statusCode} ${res.body.slice(0, 300)}; tool ${JSON.stringify(tool).slice(0, 300)}`;
  if (res.statusCode !== 200) {
    expect(tool.ok, label).toBe(false);
    if (!tool.ok) expect(tool.failure.message, label).toBe(restMessage(res.json()));
    return;
  }
  expect(tool.ok, label).toBe(true);
  if (!tool.ok) return;
  const rest = res.json() as Record<string, unknown>;
  expect(tool.result.success, label).toBe(rest.success);
  for (const p of networks) expect(stable(tool.result[p]), `${label} [${p}]`).toEqual(stable(rest[p]));
  return { tool: tool.result, rest };
}

describe('read tools and their REST twins', () => {
  let u: TestUser;
  beforeAll(async () => {
    u = await h.signup();
    for (const p of ['youtube', 'pinterest', 'facebook']) await connect(h, u, p);
  });

  const reads = [
    // Pinterest's comments cannot be read: the comments slice says so, filter or not (the same on both sides).
    { tool: 'get_user_posts', url: '/unified/posts', boardNamed: true },
    { tool: 'get_comments', url: '/unified/comments', boardNamed: false },
  ] as const;

  for (const { tool, url, boardNamed } of reads) {
    it(`${tool}: Pinterest's board and YouTube's channel filters, as REST builds them from each network's reads`, async () => {
      const channel = await expectParity(
        u,
        asUser(u),
        { tool, method: 'GET', url, args: { platforms: ['youtube'], youtube_channel_id: 'UCnot-this-account' } },
        ['youtube'],
      );
      // Not the account's channel: the slice says so (the filter was read, not dropped).
      expect(JSON.stringify(channel?.tool.youtube)).toContain('UCnot-this-account');
      const board = await expectParity(
        u,
        asUser(u),
        { tool, method: 'GET', url, args: { platforms: 'pinterest', board_id: 'no-such-board' } },
        ['pinterest'],
      );
      expect(JSON.stringify(board?.tool.pinterest).includes('no-such-board')).toBe(boardNamed);
      await expectParity(
        u,
        asUser(u),
        { tool, method: 'GET', url, args: { platforms: ['facebook'], facebook_page_ids: ['page-x', 'page-y'] } },
        ['facebook'],
      );
    });

    it(`${tool}: the same refusals for unknown networks`, async () => {
      await expectParity(u, asUser(u), { tool, method: 'GET', url, args: { platforms: ['youtube', 'myspace'] } });
      await expectParity(u, asUser(u), { tool, method: 'GET', url, args: { platforms: 'YouTube,Pinterest' } }, [
        'youtube',
        'pinterest',
      ]);
    });
  }

  it('get_unified_analytics: the board and channel filters (an analytics slice per network), and unknown networks', async () => {
    const cases: Args[] = [
      { platforms: ['youtube'], youtube_channel_id: 'UCnot-this-account' },
      { platforms: ['pinterest'], board_id: 'no-such-board' },
      { platforms: ['myspace'] },
      {},
    ];
    for (const args of cases) {
      const out = await expectParity(u, asUser(u), {
        tool: 'get_unified_analytics',
        method: 'GET',
        url: '/unified/analytics',
        args,
      });
      if (out) expect(stable(out.tool.platforms)).toEqual(stable(out.rest.platforms));
    }
  });

  it('get_comments: post_id and platform go together; a network without comments is refused alike', async () => {
    await expectParity(u, asUser(u), {
      tool: 'get_comments',
      method: 'GET',
      url: '/unified/comments',
      args: { post_id: 'p1' },
    });
    await expectParity(u, asUser(u), {
      tool: 'get_comments',
      method: 'GET',
      url: '/unified/comments',
      args: { platform: 'youtube' },
    });
    await expectParity(u, asUser(u), {
      tool: 'get_comments',
      method: 'GET',
      url: '/unified/comments',
      args: { post_id: 'p1', platform: 'myspace' },
    });
  });

  it('a key scoped to other networks is refused alike', async () => {
    const key = await h.createKey(u, 'linkedin');
    for (const { tool, url } of [...reads, { tool: 'get_unified_analytics', url: '/unified/analytics' }]) {
      await expectParity({ key }, { 'x-api-key': key }, { tool, method: 'GET', url, args: { platforms: ['youtube'] } });
    }
  });
});

describe('reply_to_comment and POST /unified/comments/reply', () => {
  let u: TestUser;
  beforeAll(async () => {
    u = await h.signup();
    await connect(h, u, 'youtube');
  });
  const reply = (args: Args): Twin => ({
    tool: 'reply_to_comment',
    method: 'POST',
    url: '/unified/comments/reply',
    in: 'body',
    args,
  });

  it('refuses the same inputs with the same messages', async () => {
    await expectParity(u, asUser(u), reply({ platform: 'myspace', comment_id: 'c1', text: 'Hello' }));
    await expectParity(u, asUser(u), reply({ platform: 'pinterest', comment_id: 'c1', text: 'Hello' }));
    await expectParity(u, asUser(u), reply({ platform: 'youtube', comment_id: 'c1', text: '   ' }));
    await expectParity(u, asUser(u), reply({ platform: 'youtube', comment_id: 'not-synced', text: 'Hello' }));
  });
});

describe('the AI tools and their REST twins', () => {
  let u: TestUser;
  beforeAll(async () => {
    u = await h.signup();
  });
  // The AI routes name the workspace in the query.
  const twin = (tool: string, url: string, args: Args): Twin => ({
    tool,
    method: 'POST',
    url: `${url}?workspace_id=${u.workspaceId}`,
    in: 'body',
    args,
  });

  it('idea_to_content and POST /unified/content/generate refuse the same inputs alike', async () => {
    const cases: Args[] = [
      { platforms: ['myspace'], idea: 'Bread' },
      { platforms: ['linkedin'] },
      { platforms: ['all'], target_platforms: ['nowhere'], idea: 'Bread' },
      { platforms: ['linkedin', 'bluesky'], idea_by_platform: { linkedin: 'Bread' } } as unknown as Args,
    ];
    for (const args of cases) {
      await expectParity(u, asUser(u), twin('idea_to_content', '/unified/content/generate', args));
    }
  });

  it('content_to_image and POST /unified/image/generate target images alike ("all" keeps the image networks, X too)', async () => {
    const cases: Args[] = [
      { platforms: ['myspace'], content: 'Bread' },
      { platforms: ['all'] },
      { platforms: ['x', 'linkedin'] },
    ];
    for (const args of cases) {
      await expectParity(u, asUser(u), twin('content_to_image', '/unified/image/generate', args));
    }
  });

  it('media_to_content and POST /unified/{image,video}-to-content/generate name their networks alike', async () => {
    for (const [kind, field] of [
      ['image', 'image_url'],
      ['video', 'video_url'],
    ] as const) {
      const url = `/unified/${kind}-to-content/generate`;
      await expectParity(u, asUser(u), {
        ...twin('media_to_content', url, { media_url: 'https://example.com/a', media_type: kind, platform: 'myspace' }),
        rest: { [field]: 'https://example.com/a', platform: 'myspace' },
      });
      await expectParity(u, asUser(u), {
        ...twin('media_to_content', url, {
          media_url: 'https://example.com/a',
          media_type: kind,
          platform: 'all',
          target_platforms: ['nowhere'],
        }),
        rest: { [field]: 'https://example.com/a', platform: 'all', target_platforms: ['nowhere'] },
      });
    }
  });

  it('a key scoped to other networks is refused alike', async () => {
    const key = await h.createKey(u, 'bluesky');
    await expectParity(
      { key },
      { 'x-api-key': key },
      twin('idea_to_content', '/unified/content/generate', { platforms: ['linkedin'], idea: 'Bread' }),
    );
    await expectParity(
      { key },
      { 'x-api-key': key },
      twin('content_to_image', '/unified/image/generate', { platforms: ['youtube'], content: 'Bread' }),
    );
  });
});

describe('the other tools and their REST twins: the same refusals', () => {
  let u: TestUser;
  let key: string;
  beforeAll(async () => {
    u = await h.signup();
    await connect(h, u, 'bluesky');
    key = await h.createKey(u, 'bluesky');
  });
  const refusals: Twin[] = [
    {
      tool: 'get_accounts',
      method: 'GET',
      url: '/unified/user-profiles',
      args: { platform: 'myspace' },
      rest: { platforms: 'myspace' },
    },
    {
      tool: 'get_queued_posts',
      method: 'GET',
      url: '/unified/scheduled-posts',
      args: { type: 'scheduled', platform: 'myspace' },
      rest: { platform: 'myspace' },
    },
    {
      tool: 'get_queued_posts',
      method: 'GET',
      url: '/unified/drafts',
      args: { type: 'draft', platform: 'myspace' },
      rest: { platform: 'myspace' },
    },
    {
      tool: 'manage_platform_connection',
      method: 'POST',
      url: '/unified/oauth/url',
      in: 'body',
      args: { action: 'connect', platform: 'myspace' },
      rest: { platform: ['myspace'] },
    },
    {
      tool: 'manage_platform_connection',
      method: 'DELETE',
      url: '/unified/oauth/token',
      args: { action: 'disconnect', platform: 'myspace' },
      rest: { platform: 'myspace' },
    },
    {
      tool: 'publish',
      method: 'POST',
      url: '/unified/post/text',
      in: 'body',
      args: { post_type: 'text', platforms: ['myspace'], default_text: 'Hello' },
      rest: { platforms: ['myspace'], default_text: 'Hello' },
    },
  ];

  it('unknown networks', async () => {
    for (const twin of refusals) await expectParity(u, asUser(u), twin);
  });

  it('a network outside the key scope', async () => {
    for (const twin of refusals) {
      const swap = (a: Args | undefined) =>
        a &&
        Object.fromEntries(
          Object.entries(a).map(([k, v]) => [
            k,
            v === 'myspace' ? 'youtube' : Array.isArray(v) && v[0] === 'myspace' ? ['youtube'] : v,
          ]),
        );
      await expectParity(
        { key },
        { 'x-api-key': key },
        { ...twin, args: swap(twin.args)!, ...(twin.rest ? { rest: swap(twin.rest) } : {}) },
      );
    }
  });
});

// Every tool is classified (read, or write and how the approval step holds it), and with the workspace setting
// tool_posts_need_approval each tool that writes to a network or removes something is held as a pending action:
// nothing reaches the simulator until a member approves it, then it runs exactly once; deleting it rejects it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/tools/index.ts';
import type { Tool } from '../../src/tools/tool.ts';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { APP_PASSWORD, connect } from '../connections/helpers.ts';
import {
  approveItem,
  BLUESKY_LOGIN,
  listed,
  networkCalls,
  REPLY_CALL,
  REVOKE_CALL,
  setApproval,
  youtubeComments,
} from './approval-helpers.ts';
import { toolRunner } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    sandbox: true,
    clock: () => new Date(),
    env: { HERALD_POSTS_FRESH_SECONDS: '3600', HERALD_COMMENTS_FRESH_SECONDS: '3600' },
  });
  await fetch(`${h.url}/sandbox/_config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ processingMs: 0 }),
  });
});
afterAll(async () => h?.close());

const { call } = toolRunner(() => h);

/** One held call of a tool: what to prepare, its arguments, the summary members read, and its call at the network. */
interface Case {
  label: string;
  platform: string;
  prepare(u: TestUser): Promise<Record<string, unknown>>;
  summary: RegExp;
  network: readonly [string, RegExp];
  /** After it ran: what the network now shows. */
  done(u: TestUser, result: Record<string, unknown>): Promise<void>;
}

const connectedPlatforms = async (u: TestUser) => (await call(u, 'get_accounts', {})).platforms as string[];

/** Every tool whose effect is held 'action' needs its cases here (the suite fails for one without). */
const CASES: Record<string, Case[]> = {
  reply_to_comment: [
    {
      label: 'a reply to a YouTube comment',
      platform: 'youtube',
      async prepare(u) {
        await connect(h, u, 'youtube');
        const { commentIds } = await youtubeComments(h, u, ['Nice video']);
        await call(u, 'get_comments', { platforms: ['youtube'] }); // Herald answers comments it has read
        return { platform: 'youtube', comment_id: commentIds[0], text: 'Thank you for watching!' };
      },
      summary: /^Reply to comment \S+ on YouTube: 'Thank you for watching!'$/,
      network: REPLY_CALL,
      async done(_u, result) {
        expect(result).toMatchObject({ success: true, message: 'Reply posted', reply_id: expect.any(String) });
      },
    },
  ],
  manage_platform_connection: [
    {
      label: 'a YouTube disconnect',
      platform: 'youtube',
      async prepare(u) {
        await connect(h, u, 'youtube');
        return { action: 'disconnect', platform: 'youtube' };
      },
      summary: /^Disconnect YouTube account \S+/,
      network: REVOKE_CALL,
      async done(u) {
        expect(await connectedPlatforms(u)).toEqual([]);
      },
    },
    {
      label: 'a Bluesky connect with an app password',
      platform: 'bluesky',
      async prepare(u) {
        return {
          action: 'connect',
          platform: 'bluesky',
          handle: `held${u.userId.slice(0, 6)}.sandbox`,
          app_password: APP_PASSWORD,
        };
      },
      summary: /^Connect Bluesky account held\w+\.sandbox$/,
      network: BLUESKY_LOGIN,
      async done(u) {
        expect(await connectedPlatforms(u)).toEqual(['bluesky']);
      },
    },
  ],
};

describe('the classification of every tool', () => {
  it('every tool declares its effect; what destroys is a write; every write says how it is held (or why never)', () => {
    for (const t of TOOLS as Tool[]) {
      expect(['read', 'write'], t.name).toContain(t.effect?.kind);
      if (t.annotations.destructive) expect(t.effect.kind, t.name).toBe('write');
      if (t.effect.kind === 'write') {
        expect(['post', 'action', 'never'], t.name).toContain(t.effect.held);
        if (t.effect.held === 'never') expect(t.effect.why.length, t.name).toBeGreaterThan(30);
      }
    }
    const held = (how: string) =>
      TOOLS.filter((t) => t.effect.kind === 'write' && t.effect.held === how)
        .map((t) => t.name)
        .sort();
    expect(held('post')).toEqual(['add_to_queue', 'import_posts', 'publish']);
    expect(held('action')).toEqual(['manage_platform_connection', 'reply_to_comment']);
  });

  it('every held tool has cases in this suite', () => {
    for (const t of TOOLS.filter((x) => x.effect.kind === 'write' && x.effect.held === 'action'))
      expect(CASES[t.name]?.length, t.name).toBeGreaterThan(0);
  });
});

describe.each(Object.entries(CASES).flatMap(([tool, cases]) => cases.map((c) => ({ tool, ...c }))))(
  '$tool: $label',
  (c) => {
    it('with the setting on it is held (nothing reaches the network); approved, it runs exactly once as the approver', async () => {
      const u = await h.signup();
      const args = await c.prepare(u);
      await setApproval(h, u, true);
      const key = await h.createKey(u, 'full');
      const before = await networkCalls(h, c.platform, ...c.network);

      const held = await call({ key }, c.tool, args, { surface: 'mcp' });
      expect(held).toMatchObject({
        success: true,
        pending_approval: true,
        message: expect.stringContaining('approv'),
        pending_action: { tool: c.tool, summary: expect.stringMatching(c.summary) },
      });
      expect(await networkCalls(h, c.platform, ...c.network)).toBe(before);
      const [item] = await listed(h, u);
      expect(item).toMatchObject({
        id: (held.drafts as { draft_id: string }[])[0]!.draft_id,
        kind: 'action',
        platform: c.platform,
        status: 'pending_approval',
        requested_via: 'mcp',
        action: { tool: c.tool, summary: expect.stringMatching(c.summary), decided_by: null, result: null },
      });
      // A secret argument is neither listed nor answered.
      expect(JSON.stringify(item)).not.toContain(APP_PASSWORD);
      expect(JSON.stringify(held)).not.toContain(APP_PASSWORD);
      // It is no post: not published, scheduled or edited as one.
      for (const [method, suffix, payload] of [
        ['POST', '/publish', undefined],
        ['POST', '/schedule', { scheduled_time: '2030-01-01T00:00:00Z' }],
        ['PATCH', '', { default_text: 'x' }],
      ] as const) {
        const res = await h.req({
          method,
          url: `/unified/drafts/${item!.id}${suffix}`,
          headers: asUser(u),
          ...(payload ? { payload } : {}),
        });
        expect(res.statusCode, `${method} ${suffix}`).toBe(409);
      }
      // An API key (what an assistant holds) cannot approve it.
      expect((await approveItem(h, u, item!.id, { 'x-api-key': key })).statusCode).toBe(403);
      expect(await networkCalls(h, c.platform, ...c.network)).toBe(before);

      const ok = await approveItem(h, u, item!.id);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({
        success: true,
        approved: true,
        kind: 'action',
        draft_id: item!.id,
        action: { tool: c.tool, decided_by: u.userId, result: { success: true } },
      });
      await c.done(u, ok.json().action.result);
      expect(await networkCalls(h, c.platform, ...c.network)).toBe(before + 1);
      // Approving again runs nothing: 409, and the record keeps the result.
      const again = await approveItem(h, u, item!.id);
      expect(again.statusCode).toBe(409);
      expect(await networkCalls(h, c.platform, ...c.network)).toBe(before + 1);
      expect(await listed(h, u)).toEqual([]);
      expect(await listed(h, u, 'approved')).toEqual([
        expect.objectContaining({
          id: item!.id,
          action: expect.objectContaining({ decided_by: u.userId, result: expect.objectContaining({ success: true }) }),
        }),
      ]);
    });

    it('two approvals at once run it once', async () => {
      const u = await h.signup();
      const args = await c.prepare(u);
      await setApproval(h, u, true);
      const before = await networkCalls(h, c.platform, ...c.network);
      const held = await call(u, c.tool, args);
      const id = (held.drafts as { draft_id: string }[])[0]!.draft_id;
      const both = await Promise.all([approveItem(h, u, id), approveItem(h, u, id)]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(await networkCalls(h, c.platform, ...c.network)).toBe(before + 1);
    });

    it('rejected (deleted), it never runs; with the setting off it runs at once', async () => {
      const u = await h.signup();
      const args = await c.prepare(u);
      await setApproval(h, u, true);
      const before = await networkCalls(h, c.platform, ...c.network);
      const held = await call(u, c.tool, args, { surface: 'gpt' });
      const id = (held.drafts as { draft_id: string }[])[0]!.draft_id;
      expect((await h.req({ method: 'DELETE', url: `/unified/drafts/${id}`, headers: asUser(u) })).statusCode).toBe(
        200,
      );
      expect((await h.req({ method: 'DELETE', url: `/unified/drafts/${id}`, headers: asUser(u) })).statusCode).toBe(
        404,
      );
      expect((await approveItem(h, u, id)).statusCode).toBe(404);
      expect(await networkCalls(h, c.platform, ...c.network)).toBe(before);

      await setApproval(h, u, false);
      const now = await call(u, c.tool, args);
      expect(now.success, JSON.stringify(now)).toBe(true);
      expect(now).not.toHaveProperty('pending_approval');
      expect(await networkCalls(h, c.platform, ...c.network)).toBe(before + 1);
    });
  },
);

describe('publish (held as a post) through the invoker', () => {
  const POST_CALL = ['POST', /createRecord$/] as const;
  it('held: nothing reaches the network; approved, published once; a second approval finds nothing; deleted, never published', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    await setApproval(h, u, true);
    const before = await networkCalls(h, 'bluesky', ...POST_CALL);
    const held = await call(
      { key: await h.createKey(u, 'full') },
      'publish',
      { platforms: ['bluesky'], default_text: 'Held first' },
      { surface: 'mcp' },
    );
    expect(held).toMatchObject({
      success: true,
      pending_approval: true,
      drafts: [{ platform: 'bluesky', status: 'pending_approval' }],
    });
    const rejected = await call(u, 'publish', { platforms: ['bluesky'], default_text: 'Never sent' });
    expect(await networkCalls(h, 'bluesky', ...POST_CALL)).toBe(before);
    expect((await listed(h, u)).map((d) => [d.kind, d.action])).toEqual([
      ['post', null],
      ['post', null],
    ]);

    const id = (held.drafts as { draft_id: string }[])[0]!.draft_id;
    const ok = await approveItem(h, u, id);
    expect(ok.json()).toMatchObject({ success: true, approved: true, draft_id: id, post: { platform: 'bluesky' } });
    expect(await networkCalls(h, 'bluesky', ...POST_CALL)).toBe(before + 1);
    expect((await approveItem(h, u, id)).statusCode).toBe(404);
    const other = (rejected.drafts as { draft_id: string }[])[0]!.draft_id;
    expect((await h.req({ method: 'DELETE', url: `/unified/drafts/${other}`, headers: asUser(u) })).statusCode).toBe(
      200,
    );
    expect((await approveItem(h, u, other)).statusCode).toBe(404);
    expect(await networkCalls(h, 'bluesky', ...POST_CALL)).toBe(before + 1);
  });
});

describe('who may approve a held action', () => {
  it("the approver's permissions are checked again: a plan that lost the inbox records a failure, and nothing is sent", async () => {
    const u = await h.signup();
    const args = await CASES.reply_to_comment![0]!.prepare(u);
    await setApproval(h, u, true);
    const before = await networkCalls(h, 'youtube', ...REPLY_CALL);
    const held = await call(u, 'reply_to_comment', args);
    const id = (held.drafts as { draft_id: string }[])[0]!.draft_id;
    await h.setPlan(u.workspaceId, 'free');
    const res = await approveItem(h, u, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      success: false,
      approved: true,
      action: { result: { success: false, error: 'plan_required' } },
    });
    expect(await networkCalls(h, 'youtube', ...REPLY_CALL)).toBe(before);
    await h.setPlan(u.workspaceId, 'pro');
    expect((await listed(h, u, 'failed')).map((d) => d.id)).toEqual([id]);
  });

  it("another workspace's member neither sees nor approves it; a key scoped to another network neither lists nor approves it", async () => {
    const u = await h.signup();
    const args = await CASES.manage_platform_connection![0]!.prepare(u);
    await setApproval(h, u, true);
    const held = await call(u, 'manage_platform_connection', args);
    const id = (held.drafts as { draft_id: string }[])[0]!.draft_id;
    const stranger = await h.signup();
    expect((await approveItem(h, u, id, asUser(stranger))).statusCode).toBe(404);
    expect(
      (await approveItem(h, u, id, { authorization: `Bearer ${stranger.token}`, 'x-workspace-id': u.workspaceId }))
        .statusCode,
    ).toBe(403);
    expect(await listed(h, stranger)).toEqual([]);
    const linkedinKey = await h.createKey(u, 'linkedin');
    expect(await listed(h, u, 'pending_approval', { 'x-api-key': linkedinKey })).toEqual([]);
    const scoped = await approveItem(h, u, id, { 'x-api-key': linkedinKey });
    expect(scoped.statusCode).toBe(403);
    expect(String(scoped.json().detail)).toContain("'youtube'");
    // A key scoped to the action's network cannot approve it either: only a member signed in.
    expect((await approveItem(h, u, id, { 'x-api-key': await h.createKey(u, 'youtube') })).statusCode).toBe(403);
    expect(await connectedPlatforms(u)).toEqual(['youtube']);
    expect((await listed(h, u)).map((d) => d.id)).toEqual([id]);
  });

  it('a held call the caller may not make is refused, not held: a key scoped to linkedin cannot reply on YouTube', async () => {
    const u = await h.signup();
    const args = await CASES.reply_to_comment![0]!.prepare(u);
    await setApproval(h, u, true);
    const key = await h.createKey(u, 'linkedin');
    await expect(call({ key }, 'reply_to_comment', args)).rejects.toMatchObject({ code: 'scope_denied' });
    expect(await listed(h, u)).toEqual([]);
  });

  it('an OAuth connect is not held: it only answers a sign-in link the member must open; nor is a disconnect of nothing', async () => {
    const u = await h.signup();
    await setApproval(h, u, true);
    expect(await call(u, 'manage_platform_connection', { action: 'disconnect', platform: 'youtube' })).toMatchObject({
      success: false,
      message: 'YouTube not connected for this workspace.',
    });
    expect(await listed(h, u)).toEqual([]);
    const res = await call(u, 'manage_platform_connection', { action: 'connect', platform: 'linkedin' });
    expect(res).toMatchObject({ success: true, auth_url: expect.stringMatching(/^http/) });
    expect(res).not.toHaveProperty('pending_approval');
  });
});

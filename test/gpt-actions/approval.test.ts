// The approval step: with the workspace setting tool_posts_need_approval, a post made by a tool waits as drafts
// pending approval (nothing reaches a network, no credit spent) until a member approves it; approval publishes it
// through the normal path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, asUser, bearer, type Harness, type TestUser } from '../helpers/harness.ts';
import { joinWorkspace } from '../helpers/security-matrix.ts';
import { connect } from '../connections/helpers.ts';
import { scriptedAdapters, type Script } from '../publishing/helpers.ts';
import type { ToolSurface } from '../../src/publishing/approval.ts';
import type { PostBody } from '../../src/publishing/schemas.ts';

const script: Script = { calls: [], behaviour: {} };
let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    sandbox: true,
    clock: () => new Date('2026-11-20T10:00:00Z'),
    overrides: { adapters: scriptedAdapters(script) },
  });
});
afterAll(async () => h?.close());

async function setApproval(u: TestUser, on: boolean) {
  const res = await h.req({
    method: 'PATCH',
    url: `/workspaces/${u.workspaceId}`,
    headers: bearer(u.token),
    payload: { tool_posts_need_approval: on },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().tool_posts_need_approval).toBe(on);
}

/** What a tool's publish does: the caller's principal (an API key here) and its surface. */
async function toolPost(
  u: TestUser,
  body: Record<string, unknown>,
  surface: ToolSurface = 'gpt',
  postType: 'text' = 'text',
) {
  const key = await h.createKey(u, 'full');
  const principal = await h.ctx.auth.workspace({ token: key, workspaceHeader: undefined });
  return h.ctx.publishing.approvals.submitFromTool({ principal, surface }, postType, body as PostBody);
}

const postsUsed = async (u: TestUser) =>
  (await h.req({ method: 'GET', url: '/billing/usage', headers: asUser(u) })).json().used_this_period.posts as number;
const approve = (u: TestUser, id: string, headers: Record<string, string> = asUser(u)) =>
  h.req({ method: 'POST', url: `/unified/drafts/${id}/approve`, headers });

describe('the workspace setting', () => {
  it('is off by default, shown on the workspace, and set by owners', async () => {
    const u = await h.signup();
    const [ws] = (await h.req({ method: 'GET', url: '/workspaces', headers: bearer(u.token) })).json();
    expect(ws.tool_posts_need_approval).toBe(false);
    await setApproval(u, true);
    const [after] = (await h.req({ method: 'GET', url: '/workspaces', headers: bearer(u.token) })).json();
    expect(after.tool_posts_need_approval).toBe(true);
    await setApproval(u, false);
    const member = await h.signup();
    await joinWorkspace(h, u, member);
    const refused = await h.req({
      method: 'PATCH',
      url: `/workspaces/${u.workspaceId}`,
      headers: bearer(member.token),
      payload: { tool_posts_need_approval: true },
    });
    expect(refused.statusCode).toBe(403);
  });

  it('needs a plan with drafts to turn on (held posts are drafts), and is a boolean', async () => {
    const u = await h.signup();
    await h.setPlan(u.workspaceId, 'free');
    const res = await h.req({
      method: 'PATCH',
      url: `/workspaces/${u.workspaceId}`,
      headers: bearer(u.token),
      payload: { tool_posts_need_approval: true },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toMatchObject({ error: 'plan_required', feature: 'drafts_enabled' });
    const off = await h.req({
      method: 'PATCH',
      url: `/workspaces/${u.workspaceId}`,
      headers: bearer(u.token),
      payload: { tool_posts_need_approval: false },
    });
    expect(off.statusCode).toBe(200);
    await h.setPlan(u.workspaceId, 'pro');
    const bad = await h.req({
      method: 'PATCH',
      url: `/workspaces/${u.workspaceId}`,
      headers: bearer(u.token),
      payload: { tool_posts_need_approval: 'yes' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['body', 'tool_posts_need_approval']);
  });
});

describe("a tool's post", () => {
  it('publishes at once when the setting is off', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    script.calls.length = 0;
    const out = await toolPost(u, { platforms: ['bluesky'], default_text: 'Straight out' });
    expect(out.body).toMatchObject({
      success: true,
      post: { platform: 'bluesky', post_id: expect.stringMatching(/^bluesky-/) },
    });
    expect(script.calls).toHaveLength(1);
  });

  it('waits as drafts pending approval when the setting is on: no network call, no credit; a member approves it and it is published', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    await connect(h, u, 'linkedin');
    await setApproval(u, true);
    script.calls.length = 0;
    const held = await toolPost(u, { platforms: ['bluesky', 'linkedin'], default_text: 'Reviewed first' }, 'mcp');
    expect(held.status).toBe(200);
    expect(held.body).toMatchObject({
      success: true,
      pending_approval: true,
      message: expect.stringContaining('approv'),
    });
    const drafts = (held.body as { drafts: { platform: string; draft_id: string; status: string }[] }).drafts;
    expect(drafts.map((d) => [d.platform, d.status]).sort()).toEqual([
      ['bluesky', 'pending_approval'],
      ['linkedin', 'pending_approval'],
    ]);
    expect(script.calls).toHaveLength(0);
    expect(await postsUsed(u)).toBe(0);

    const listed = (
      await h.req({ method: 'GET', url: '/unified/drafts?status=pending_approval', headers: asUser(u) })
    ).json();
    expect(listed.total).toBe(2);
    expect(listed.data[0]).toMatchObject({
      status: 'pending_approval',
      requested_via: 'mcp',
      default_text: 'Reviewed first',
    });
    expect((await h.req({ method: 'GET', url: '/unified/drafts?status=draft', headers: asUser(u) })).json().total).toBe(
      0,
    );

    const bsky = drafts.find((d) => d.platform === 'bluesky')!.draft_id;
    // Publishing or scheduling it as a plain draft is refused: only approval publishes it.
    const direct = await h.req({ method: 'POST', url: `/unified/drafts/${bsky}/publish`, headers: asUser(u) });
    expect(direct.statusCode).toBe(409);
    expect(direct.json().detail).toContain('/approve');
    const sched = await h.req({
      method: 'POST',
      url: `/unified/drafts/${bsky}/schedule`,
      headers: asUser(u),
      payload: { scheduled_time: '2026-12-01T10:00:00Z' },
    });
    expect(sched.statusCode).toBe(409);
    // An API key (what a chat assistant holds) cannot approve.
    const key = await h.createKey(u, 'full');
    const byKey = await approve(u, bsky, { 'x-api-key': key });
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().detail).toContain('member');
    expect(script.calls).toHaveLength(0);

    // A plain member (not only owners) approves.
    const member = await h.signup();
    await joinWorkspace(h, u, member);
    const ok = await approve(u, bsky, { authorization: `Bearer ${member.token}`, 'x-workspace-id': u.workspaceId });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ success: true, approved: true, draft_id: bsky, post: { platform: 'bluesky' } });
    expect(script.calls.map((c) => [c.platform, c.req.text])).toEqual([['bluesky', 'Reviewed first']]);
    expect(await postsUsed(u)).toBe(1);
    expect((await h.req({ method: 'GET', url: `/unified/drafts/${bsky}`, headers: asUser(u) })).statusCode).toBe(404);
    expect(
      (await h.req({ method: 'GET', url: '/unified/drafts?status=pending_approval', headers: asUser(u) })).json().total,
    ).toBe(1);
    // Approved once: approving again finds nothing.
    expect((await approve(u, bsky)).statusCode).toBe(404);
  });

  it('through the GPT action publish: held with the setting on (pending_approval, requested_via gpt), published with it off', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    const headers = { authorization: `Bearer ${await h.createKey(u, 'full')}` };
    const publish = (text: string) =>
      h.req({
        method: 'POST',
        url: '/unified/gpt-actions/publish',
        headers,
        payload: { platforms: ['bluesky'], default_text: text },
      });
    await setApproval(u, true);
    script.calls.length = 0;
    const held = await publish('Asked in ChatGPT');
    expect(held.statusCode, held.body).toBe(200);
    expect(held.json()).toMatchObject({
      success: true,
      pending_approval: true,
      drafts: [{ platform: 'bluesky', status: 'pending_approval' }],
    });
    expect(script.calls).toHaveLength(0);
    const listed = (
      await h.req({ method: 'GET', url: '/unified/drafts?status=pending_approval', headers: asUser(u) })
    ).json();
    expect(listed.data).toEqual([expect.objectContaining({ requested_via: 'gpt', default_text: 'Asked in ChatGPT' })]);
    await setApproval(u, false);
    const now = await publish('Straight from ChatGPT');
    expect(now.json()).toMatchObject({ success: true, post: { platform: 'bluesky' } });
    expect(now.json()).not.toHaveProperty('pending_approval');
    expect(script.calls).toHaveLength(1);
  });

  it('is checked as publishing checks it before it is held (a Bluesky text over 300 characters is refused)', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    await setApproval(u, true);
    await expect(toolPost(u, { platforms: ['bluesky'], default_text: 'x'.repeat(301) })).rejects.toMatchObject({
      status: 422,
    });
    expect((await h.req({ method: 'GET', url: '/unified/drafts', headers: asUser(u) })).json().total).toBe(0);
  });

  it('with draft: true is saved as plain drafts (nothing to approve); draft_platforms stay plain drafts next to held ones', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    await connect(h, u, 'linkedin');
    await setApproval(u, true);
    const plain = await toolPost(u, { platforms: ['bluesky'], default_text: 'Only a draft', draft: true });
    expect(plain.body).toMatchObject({ success: true, drafts: [{ platform: 'bluesky', status: 'draft' }] });
    expect(plain.body).not.toHaveProperty('pending_approval');
    const allDrafts = await toolPost(u, {
      platforms: ['bluesky'],
      default_text: 'Only drafts too',
      draft_platforms: ['bluesky'],
    });
    expect(allDrafts.body).toMatchObject({ success: true, drafts: [{ platform: 'bluesky', status: 'draft' }] });
    expect(allDrafts.body).not.toHaveProperty('pending_approval');
    const mixed = await toolPost(u, {
      platforms: ['bluesky', 'linkedin'],
      default_text: 'Half',
      draft_platforms: ['linkedin'],
    });
    const refs = (mixed.body as { drafts: { platform: string; status: string; draft_id: string }[] }).drafts;
    expect(refs.map((d) => [d.platform, d.status])).toEqual([
      ['bluesky', 'pending_approval'],
      ['linkedin', 'draft'],
    ]);
    // A plain draft is not waiting for approval.
    const notHeld = await approve(u, refs[1]!.draft_id);
    expect(notHeld.statusCode).toBe(409);
    expect(notHeld.json().detail).toContain('not waiting for approval');
  });

  it('a failed publication keeps it pending; approving again after the fault retries it', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    await setApproval(u, true);
    const held = await toolPost(u, { platforms: ['bluesky'], default_text: 'Second try' }, 'agent');
    const id = (held.body as { drafts: { draft_id: string }[] }).drafts[0]!.draft_id;
    const { PlatformError } = await import('../../src/platforms/types.ts');
    script.calls.length = 0;
    script.behaviour.bluesky = async () => {
      throw new PlatformError('bluesky', 'rate_limited', 'Bluesky is throttling this account', {
        retryAfterSeconds: 30,
      });
    };
    try {
      const failed = await approve(u, id);
      expect(failed.statusCode).toBe(200);
      expect(failed.json()).toMatchObject({ success: false, approved: false, error: 'RATE_LIMITED', draft_id: id });
    } finally {
      delete script.behaviour.bluesky;
    }
    const still = (await h.req({ method: 'GET', url: `/unified/drafts/${id}`, headers: asUser(u) })).json();
    expect(still.data).toMatchObject({ status: 'pending_approval', requested_via: 'agent' });
    const again = await approve(u, id);
    expect(again.json()).toMatchObject({ success: true, approved: true });
    expect(script.calls).toHaveLength(2);
  });

  it('two approvals at once publish it once', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    await setApproval(u, true);
    const held = await toolPost(u, { platforms: ['bluesky'], default_text: 'Only once' });
    const id = (held.body as { drafts: { draft_id: string }[] }).drafts[0]!.draft_id;
    script.calls.length = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    script.behaviour.bluesky = async (_req, journal) => {
      await gate;
      await journal.record('post_id', 'bluesky-once');
      return { state: 'published', postId: 'bluesky-once', permalink: 'https://bluesky.example/p/once' };
    };
    try {
      const first = approve(u, id);
      // The second arrives while the first is at the network.
      while (script.calls.length === 0) await new Promise((r) => setTimeout(r, 5));
      const second = await approve(u, id);
      release();
      const one = await first;
      expect(one.json()).toMatchObject({ success: true, approved: true });
      expect(second.statusCode).toBe(409);
    } finally {
      delete script.behaviour.bluesky;
    }
    expect(script.calls).toHaveLength(1);
  });
});

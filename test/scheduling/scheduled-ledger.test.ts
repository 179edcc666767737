// A claimed entry's ledger post is written by publishing's one ledger writer (recordScheduledRun, the writer of
// publishing now): the post, its targets and their post credits only while the caller's claim holds, in one
// transaction with the claim's own write; nothing at all once the claim is lost.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { scriptedAdapters, type Script } from '../publishing/helpers.ts';
import type { PostBody } from '../../src/publishing/index.ts';

const script: Script = { calls: [], behaviour: {} };
let h: Harness;
let u: TestUser;
beforeAll(async () => {
  h = await createHarness({ sandbox: true, overrides: { adapters: scriptedAdapters(script) } });
  u = await h.signup();
  await connect(h, u, 'bluesky');
});
afterAll(async () => h?.close());

async function entry(text: string) {
  const planId = (await h.ctx.workspaces.byId(u.workspaceId))!.planId;
  const request = { platforms: ['bluesky', 'threads'], default_text: text } as PostBody;
  const { targets: planned } = await h.ctx.publishing.validate({ workspaceId: u.workspaceId, planId }, 'text', request);
  return {
    entryId: randomUUID(),
    workspaceId: u.workspaceId,
    planId,
    postType: 'text' as const,
    request,
    actor: 'scheduler:test',
    planned,
  };
}

describe('recordScheduledRun', () => {
  it('writes nothing and spends nothing when the claim is lost inside its transaction', async () => {
    const before = await h.ctx.credits.used(u.workspaceId, 'posts');
    let written: string | undefined;
    const out = await h.ctx.publishing.recordScheduledRun(await entry('lost claim'), async (_tx, postId) => {
      written = postId;
      return false;
    });
    expect(out).toBeUndefined();
    expect(written).toBeDefined();
    await expect(h.ctx.publishing.ledger.postOf(written!)).rejects.toThrow('not found');
    expect(await h.ctx.credits.used(u.workspaceId, 'posts')).toBe(before);
  });

  it('writes the post, its started targets and a post credit per connected target while the claim holds', async () => {
    const before = await h.ctx.credits.used(u.workspaceId, 'posts');
    const e = await entry('kept claim');
    const out = await h.ctx.publishing.recordScheduledRun(e, async () => true);
    expect(out).toBeDefined();
    const post = await h.ctx.publishing.ledger.postOf(out!.postId);
    expect(post).toMatchObject({
      requestHash: `scheduled:${e.entryId}`,
      actor: 'scheduler:test',
      idempotencyKey: null,
    });
    const byNetwork = Object.fromEntries(out!.rows.map((r) => [r.platform, r]));
    // Bluesky is connected: started for the caller's run (its first attempt recorded with it), its credit spent.
    expect(byNetwork.bluesky).toMatchObject({ state: 'processing', attempts: 1, creditSpent: true });
    // Threads is not: failed before any network call, nothing spent.
    expect(byNetwork.threads).toMatchObject({ state: 'failed', errorCode: 'NOT_CONNECTED', creditSpent: false });
    expect(out!.conns.map((c) => c?.platform)).toEqual(
      out!.rows.map((r) => (r.platform === 'bluesky' ? 'bluesky' : undefined)),
    );
    expect(await h.ctx.credits.used(u.workspaceId, 'posts')).toBe(before + 1);
    expect(script.calls.filter((c) => c.req.text === 'kept claim')).toHaveLength(0);
  });
});

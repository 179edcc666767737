// Through GPT Actions, a tool that removes something is held with tool_posts_need_approval: the disconnect action
// answers that it waits for approval, the account stays connected and nothing reaches the network until a member
// approves it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { approveItem, listed, networkCalls, REVOKE_CALL, setApproval } from '../tools/approval-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ sandbox: true });
});
afterAll(async () => h?.close());

describe('GPT Actions: a held disconnect', () => {
  it('waits for approval, then disconnects once', async () => {
    const u = await h.signup();
    await connect(h, u, 'youtube');
    await setApproval(h, u, true);
    const before = await networkCalls(h, 'youtube', ...REVOKE_CALL);
    const res = await h.req({
      method: 'POST',
      url: '/unified/gpt-actions/manage_platform_connection',
      headers: { authorization: `Bearer ${await h.createKey(u, 'full')}` },
      payload: { action: 'disconnect', platform: 'youtube' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      pending_approval: true,
      action: 'disconnect',
      pending_action: {
        tool: 'manage_platform_connection',
        summary: expect.stringMatching(/^Disconnect YouTube account /),
      },
    });
    expect(await networkCalls(h, 'youtube', ...REVOKE_CALL)).toBe(before);
    expect((await h.ctx.connectionStore.list(u.workspaceId, 'youtube')).length).toBe(1);
    const [item] = await listed(h, u);
    expect(item).toMatchObject({
      kind: 'action',
      requested_via: 'gpt',
      action: { tool: 'manage_platform_connection', arguments: { action: 'disconnect', platform: 'youtube' } },
    });
    expect((await approveItem(h, u, item!.id)).json()).toMatchObject({ success: true, approved: true });
    expect(await networkCalls(h, 'youtube', ...REVOKE_CALL)).toBe(before + 1);
    expect((await h.ctx.connectionStore.list(u.workspaceId, 'youtube')).length).toBe(0);
  });
});

// Through MCP, a tool that writes to a network is held with tool_posts_need_approval: reply_to_comment answers that
// it waits for approval (not an error), nothing reaches the network, and the reply is sent once a member approves it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import {
  approveItem,
  listed,
  networkCalls,
  REPLY_CALL,
  setApproval,
  youtubeComments,
} from '../tools/approval-helpers.ts';
import { mcpClient, textOf } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ sandbox: true, clock: () => new Date(), env: { HERALD_COMMENTS_FRESH_SECONDS: '3600' } });
  await fetch(`${h.url}/sandbox/_config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ processingMs: 0 }),
  });
});
afterAll(async () => h?.close());

describe('MCP: a held reply', () => {
  it('waits for approval, then is sent once', async () => {
    const u = await h.signup();
    await connect(h, u, 'youtube');
    const { commentIds } = await youtubeComments(h, u, ['Is there a recipe?']);
    await setApproval(h, u, true);
    const c = await mcpClient(`${h.url}/mcp`, { 'x-api-key': await h.createKey(u, 'full') });
    try {
      await c.call('get_comments', { platforms: ['youtube'] });
      const before = await networkCalls(h, 'youtube', ...REPLY_CALL);
      const res = await c.call('reply_to_comment', {
        platform: 'youtube',
        comment_id: commentIds[0],
        text: 'Yes: on the blog.',
      });
      expect(res.isError).toBe(false);
      expect(JSON.parse(textOf(res))).toMatchObject({
        success: true,
        pending_approval: true,
        pending_action: { tool: 'reply_to_comment' },
      });
      expect(await networkCalls(h, 'youtube', ...REPLY_CALL)).toBe(before);
      const [item] = await listed(h, u);
      expect(item).toMatchObject({
        kind: 'action',
        requested_via: 'mcp',
        action: { summary: `Reply to comment ${commentIds[0]} on YouTube: 'Yes: on the blog.'` },
      });
      expect((await approveItem(h, u, item!.id)).json()).toMatchObject({ success: true, approved: true });
      expect(await networkCalls(h, 'youtube', ...REPLY_CALL)).toBe(before + 1);
    } finally {
      await c.close();
    }
  });
});

// The direct commands against the real tools, in-process as the agent runs them (the caller authenticated as on
// REST, arguments parsed by each tool's schema, failures in band), with the sandbox networks over HTTP: a publish
// really reaches the simulators, a network that is not connected is reported in the tool's words, drafts and the
// approval setting hold, and copy generation spends the credits REST spends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directCommand } from '../../src/agent/commands.ts';
import type { AgentToolCall } from '../../src/agent/answer.ts';
import { AppError } from '../../src/errors.ts';
import { toolsFor } from '../../src/tools/index.ts';
import type { ToolResult } from '../../src/tools/tool.ts';
import { connect } from '../connections/helpers.ts';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { endToEnd } from '../publishing/end-to-end.ts';
import { toolRunner } from '../tools/helpers.ts';

let h: Harness;
let u: TestUser;
beforeAll(async () => {
  h = await createHarness({ sandbox: true, clock: () => new Date() });
  await fetch(`${h.url}/sandbox/_config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ processingMs: 0 }),
  });
  u = await h.signup();
  await connect(h, u, 'linkedin');
  await connect(h, u, 'bluesky');
});
afterAll(async () => h?.close());

const { postsOf } = endToEnd(() => h);
const { call } = toolRunner(() => h);

/** The agent's invoke: the tool run for this member, an AppError turned into the in-band failure a model would read. */
async function say(
  text: string,
  as: TestUser | { key: string } = u,
): Promise<{ response: string; tables: string; calls: AgentToolCall[] }> {
  const invoke = async (name: string, args: Record<string, unknown>): Promise<ToolResult> => {
    try {
      return await call(as, name, args);
    } catch (err) {
      if (err instanceof AppError)
        return {
          success: false,
          message:
            typeof err.detail === 'string'
              ? err.detail
              : String((err.detail as { message?: string }).message ?? err.code),
          error: err.code,
        };
      throw err;
    }
  };
  const out = await directCommand(
    text,
    invoke,
    toolsFor('agent', h.ctx).map((t) => t.name),
    h.ctx.platforms.networks,
  );
  return { response: out.answer.response, tables: out.answer.tables_markdown, calls: out.calls };
}

describe('direct commands over the real tools', () => {
  it('lists the connected accounts', async () => {
    const out = await say('list accounts');
    expect(out.calls.map((c) => c.name)).toEqual(['get_accounts']);
    expect(out.response).toMatch(/\| LinkedIn \| [^|]+ \|/);
    expect(out.response).toMatch(/\| Bluesky \| [^|]+ \|/);
    expect(out.tables).toContain('| Network | Name | Handle | Status |');
  });

  it('publishes to two networks: the posts reach the simulators and the answer links them', async () => {
    const used = await h.ctx.credits.used(u.workspaceId, 'posts');
    const out = await say('Publish “Fresh rye from the direct command” to LinkedIn and Bluesky');
    expect(out.calls).toHaveLength(1);
    expect(out.calls[0]!.result.success, JSON.stringify(out.calls[0]!.result)).toBe(true);
    expect(out.response).toContain('Published to 2 of 2 networks');
    expect((await postsOf('linkedin')).some((p) => p.text === 'Fresh rye from the direct command')).toBe(true);
    expect((await postsOf('bluesky')).some((p) => p.text === 'Fresh rye from the direct command')).toBe(true);
    expect((await h.ctx.credits.used(u.workspaceId, 'posts')) - used).toBe(2);
  });

  it('reports a network that is not connected in the tool’s words, and posts nothing there', async () => {
    const before = (await postsOf('threads')).length;
    const out = await say('publish "Nobody will see this" to threads');
    expect(out.calls[0]!.result.success).toBe(false);
    expect(out.response).toMatch(/Threads not connected for this workspace/);
    expect((await postsOf('threads')).length).toBe(before);
  });

  it('saves drafts and lists them', async () => {
    const out = await say('publish "Draft from a command" to linkedin as draft');
    expect(out.response).toContain('Saved as drafts');
    const listed = await say('list drafts');
    expect(listed.calls[0]!.args).toEqual({ type: 'draft' });
    expect(listed.response).toContain('| LinkedIn | draft | Draft from a command |');
  });

  it('schedules for an ISO time and lists the scheduled post', async () => {
    const when = new Date(Date.now() + 3 * 24 * 3600_000);
    when.setUTCSeconds(0, 0);
    const iso = when.toISOString().replace('.000Z', 'Z');
    const out = await say(`schedule "Scheduled from a command" on bluesky at ${iso}`);
    expect(out.calls[0]!.result.success, JSON.stringify(out.calls[0]!.result)).toBe(true);
    expect(out.response).toContain('Scheduled');
    const listed = await say('list scheduled posts on bluesky');
    expect(listed.response).toContain('Scheduled from a command');
  });

  it('generates copy with the built-in provider, spending 2 AI credits per network and publishing nothing', async () => {
    const used = await h.ctx.credits.used(u.workspaceId, 'ai_credits');
    const posts = (await postsOf('bluesky')).length;
    const out = await say('generate copy for bluesky, linkedin: our second oven opens on Saturday');
    expect(out.calls[0]!.result.success).toBe(true);
    expect(out.response).toContain('**Bluesky**\n\n> ');
    expect(out.response).toContain('**LinkedIn**\n\n> ');
    expect((await h.ctx.credits.used(u.workspaceId, 'ai_credits')) - used).toBe(4);
    expect((await postsOf('bluesky')).length).toBe(posts);
  });

  it('follows the workspace’s approval setting: the post is held, nothing reaches the network', async () => {
    const other = await h.signup();
    await connect(h, other, 'bluesky');
    const res = await h.req({
      method: 'PATCH',
      url: `/workspaces/${other.workspaceId}`,
      headers: { authorization: `Bearer ${other.token}` },
      payload: { tool_posts_need_approval: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    const before = (await postsOf('bluesky')).length;
    const out = await say('publish "Held for approval" to bluesky', other);
    expect(out.response).toContain('Waiting for approval');
    expect((await postsOf('bluesky')).length).toBe(before);
  });

  it('a key scoped to LinkedIn cannot publish to Bluesky through a command: the refusal is reported', async () => {
    const key = await h.createKey(u, 'linkedin');
    const before = (await postsOf('bluesky')).length;
    const out = await say('publish "Out of scope" to bluesky', { key });
    expect(out.calls[0]!.result).toMatchObject({ success: false, error: 'scope_denied' });
    expect(out.response).toContain("'bluesky'");
    expect((await postsOf('bluesky')).length).toBe(before);
  });
});

describe('through POST /workspace-agent/website/chat with the built-in provider', () => {
  it('runs a direct command as the turn: the post reaches the network, the answer is the command’s, the turn is archived', async () => {
    const key = await h.createKey(u, 'full');
    const res = await h.req({
      method: 'POST',
      url: '/workspace-agent/website/chat',
      headers: { 'x-api-key': key },
      payload: { text: 'publish "Posted through the chat route" to bluesky' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as {
      success: boolean;
      agent_response_json: string;
      parsed: { response: string; tables_markdown: string };
    };
    expect(body.parsed.response).toContain('Published to Bluesky');
    expect(JSON.parse(body.agent_response_json)).toEqual(body.parsed);
    expect((await postsOf('bluesky')).some((p) => p.text === 'Posted through the chat route')).toBe(true);
    const history = await h.req({ method: 'GET', url: '/user-agent-chats?limit=1', headers: { 'x-api-key': key } });
    expect(history.json().items[0].turn.user.text).toBe('publish "Posted through the chat route" to bluesky');
  });

  it('answers free text with what a model needs, calling no tool', async () => {
    const key = await h.createKey(u, 'full');
    const before = (await postsOf('linkedin')).length;
    const res = await h.req({
      method: 'POST',
      url: '/workspace-agent/website/chat',
      headers: { 'x-api-key': key },
      payload: { text: 'Draft three LinkedIn posts from my last video and schedule them next week' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().parsed.response).toContain('No AI model is configured');
    expect(res.json().parsed.response).toContain('HERALD_AI_PROVIDER');
    expect((await postsOf('linkedin')).length).toBe(before);
  });
});

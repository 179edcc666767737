// POST /workspace-agent/website/chat/stream on the AI SDK's mock models (streamText through doStream): the events of a
// turn with a tool call, the final answer equal to the blocking route's body, the archived turn, credits, errors
// before the stream (JSON) and during it (an `error` event, credits back), a client that goes away, and the direct
// commands without a model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connectAccount } from '../media-routes/helpers.ts';
import { aiUsed, breakAfter, chat, chatStream, eventOrder, models, say, scripted, sseEvents, use } from './helpers.ts';

const language = scripted('agent-stream');
let h: Harness;

beforeAll(async () => {
  h = await createHarness({ overrides: { aiModels: models(language) }, sandbox: true });
});
afterAll(async () => {
  await h?.close();
});

async function member(): Promise<{ u: TestUser; key: string }> {
  const u = await h.signup();
  return { u, key: await h.createKey(u, 'full') };
}

const history = async (key: string) =>
  (await h.req({ method: 'GET', url: '/user-agent-chats', headers: { 'x-api-key': key } })).json();

const ANSWER = 'You have **Bluesky** connected.\n\n| network | state |\n|---|---|\n| bluesky | connected |';

describe('the streamed turn', () => {
  it('streams the tool call, its result and the text, then the answer: the blocking body, archived the same, 2 credits', async () => {
    const { u, key } = await member();
    await connectAccount(h, u, 'bluesky');
    language.reset();
    language.script = (_p, n) => (n === 0 ? use(['get_accounts', {}]) : say(ANSWER));
    const before = await aiUsed(h, u);
    const res = await chatStream(h, key, { text: 'Which accounts are connected?', workspace_id: u.workspaceId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-accel-buffering']).toBe('no');
    const events = sseEvents(res.body);
    expect(eventOrder(events)).toEqual(['tool_call', 'tool_result', 'delta', 'answer']);
    expect(events[0]!.data).toEqual({ name: 'get_accounts', args: {} });
    expect(events[1]!.data).toMatchObject({ name: 'get_accounts', success: true });
    expect(typeof events[1]!.data.summary).toBe('string');
    expect(events[1]!.data.summary.length).toBeLessThanOrEqual(200);
    const deltas = events.filter((e) => e.event === 'delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((e) => e.data.text).join('')).toBe(ANSWER);
    const answer = events.at(-1)!.data;
    expect(Object.keys(answer).sort()).toEqual(['agent_response_json', 'parsed', 'success']);
    expect(answer.success).toBe(true);
    expect(JSON.parse(answer.agent_response_json)).toEqual(answer.parsed);
    expect(answer.parsed).toMatchObject({
      response: ANSWER,
      tables_markdown: '| network | state |\n|---|---|\n| bluesky | connected |',
      append_footer: true,
    });
    expect(await aiUsed(h, u)).toBe(before + 2);
    const turns = await history(key);
    expect(turns.total).toBe(1);
    const streamedTurn = turns.items[0].turn;
    expect(streamedTurn).toMatchObject({
      channel: 'website',
      user: { text: 'Which accounts are connected?' },
      assistant: { text: ANSWER, raw: answer.agent_response_json },
    });

    // The blocking route on the same script: the same body, the same archived turn.
    language.reset();
    const blocking = await chat(h, key, { text: 'Which accounts are connected?' });
    expect(blocking.statusCode, blocking.body).toBe(200);
    expect(blocking.json()).toEqual(answer);
    const both = await history(key);
    expect(both.total).toBe(2);
    const strip = (t: { user: object; assistant: object; channel: string }) => ({
      channel: t.channel,
      user: { ...t.user, at: undefined },
      assistant: { ...t.assistant, at: undefined },
    });
    expect(strip(both.items[0].turn)).toEqual(strip(streamedTurn));
    // The memory holds the streamed turn like a blocking one (the tool call summarised).
    const memory = await h.ctx.agentChats.memory(u.workspaceId);
    expect(memory.recent.filter((m) => m.content.includes('get_accounts({}) → ok'))).toHaveLength(2);
  });

  it('the same errors as the chat route before the stream, as JSON', async () => {
    const { u, key } = await member();
    language.reset();
    language.script = () => say('Should not be asked.');
    const other = await member();
    const forbidden = await chatStream(h, key, { text: 'Hi', workspace_id: other.u.workspaceId });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ detail: 'workspace does not match API key' });
    const empty = await chatStream(h, key, { text: '  ' });
    expect(empty.statusCode).toBe(422);
    expect(empty.headers['content-type']).toContain('application/json');
    const missing = await chatStream(h, key, { text: 'Look', image_media_id: '00000000-0000-4000-8000-000000000000' });
    expect(missing.statusCode).toBe(404);
    const ws = (await h.ctx.workspaces.byId(u.workspaceId))!;
    const limit = h.ctx.credits.limitFor(ws.planId, 'ai_credits')!;
    await h.ctx.credits.spend({
      workspaceId: u.workspaceId,
      planId: ws.planId,
      type: 'ai_credits',
      amount: limit - 1,
      reason: 'test',
    });
    const poor = await chatStream(h, key, { text: 'Hello' });
    expect(poor.statusCode).toBe(402);
    expect(poor.json().detail).toMatchObject({ error: 'insufficient_credits', required: 2, available: 1 });
    expect(language.prompts).toHaveLength(0);
  });

  it('a model that fails mid-stream ends with an error event (500, the request id, no internals); credits back, nothing archived', async () => {
    const { u, key } = await member();
    language.reset();
    language.script = (_p, n) => (n === 0 ? use(['get_queued_posts', {}]) : breakAfter('Let me look'));
    const before = await aiUsed(h, u);
    const res = await chatStream(h, key, { text: 'What is queued?' });
    expect(res.statusCode).toBe(200);
    const events = sseEvents(res.body);
    expect(eventOrder(events)).toEqual(['tool_call', 'tool_result', 'delta', 'error']);
    const error = events.at(-1)!.data;
    expect(error.status).toBe(500);
    expect(error.detail).toMatch(/^The agent could not answer: the model call failed\. Request id: \S+\.$/);
    expect(res.body).not.toContain('10.9.8.7');
    expect(res.body).not.toContain('sk-internal');
    expect(await aiUsed(h, u)).toBe(before);
    expect((await history(key)).total).toBe(0);
  });

  it('an empty answer ends with an error event 502', async () => {
    const { u, key } = await member();
    language.reset();
    language.script = () => say('  ');
    const before = await aiUsed(h, u);
    const res = await chatStream(h, key, { text: 'Hello' });
    const events = sseEvents(res.body);
    expect(events.at(-1)).toEqual({
      event: 'error',
      data: { status: 502, detail: 'The agent returned an empty response.' },
    });
    expect(await aiUsed(h, u)).toBe(before);
    expect((await history(key)).total).toBe(0);
  });

  it('a client that disconnects aborts the model call: the turn is not archived and its credits come back', async () => {
    const { u, key } = await member();
    language.reset();
    let aborted: () => void;
    const wasAborted = new Promise<void>((r) => (aborted = r));
    let started: () => void;
    const modelCalled = new Promise<void>((r) => (started = r));
    language.script = (_p, _n, _s, signal) =>
      new Promise((_resolve, reject) => {
        started();
        signal?.addEventListener('abort', () => {
          aborted();
          reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
        });
      });
    const before = await aiUsed(h, u);
    const client = new AbortController();
    const res = await fetch(`${h.url}/workspace-agent/website/chat/stream`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Take your time' }),
      signal: client.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    await modelCalled;
    client.abort();
    await wasAborted;
    // The refund follows the abort; wait for it without a clock bound.
    while ((await aiUsed(h, u)) !== before) await new Promise((r) => setTimeout(r, 20));
    expect((await history(key)).total).toBe(0);
  });
});

describe('the streamed turn without a model', () => {
  let b: Harness;
  beforeAll(async () => {
    b = await createHarness();
  });
  afterAll(async () => {
    await b?.close();
  });

  it("streams the direct command's tool calls, then the answer (no text deltas)", async () => {
    const u = await b.signup();
    const key = await b.createKey(u, 'full');
    await connectAccount(b, u, 'linkedin');
    const res = await chatStream(b, key, { text: 'list accounts' });
    expect(res.statusCode, res.body).toBe(200);
    const events = sseEvents(res.body);
    expect(eventOrder(events)).toEqual(['tool_call', 'tool_result', 'answer']);
    expect(events[0]!.data).toEqual({ name: 'get_accounts', args: {} });
    expect(events[1]!.data).toMatchObject({ name: 'get_accounts', success: true });
    const answer = events.at(-1)!.data;
    expect(answer.parsed.append_footer).toBe(false);
    expect(answer.parsed.response).toContain('linkedin');
    const turns = (await b.req({ method: 'GET', url: '/user-agent-chats', headers: { 'x-api-key': key } })).json();
    expect(turns.items[0].turn.assistant.raw).toBe(answer.agent_response_json);
  });
});

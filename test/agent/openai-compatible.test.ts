// The whole HTTP path of agent chat against a local OpenAI-compatible server over real HTTP (HERALD_AI_PROVIDER=
// openai-compatible): a tool call in OpenAI's format, its result going back, the final answer; memory in the next
// turn; an image sent as an image part; a server that fails or is down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, asUser, type Harness, type TestUser } from '../helpers/harness.ts';
import { connectAccount, png, upload } from '../media-routes/helpers.ts';
import {
  modelServerEnv,
  startModelServer,
  type ChatRequest,
  type ModelServer,
} from '../ai-routes/helpers/openai-server.ts';
import { aiUsed, chat, chatStream, eventOrder, sseEvents } from './helpers.ts';

let server: ModelServer;
let h: Harness;
let owner: TestUser;
let key: string;

const env = (baseUrl: string) => modelServerEnv(baseUrl, { HERALD_AI_VISION_MODEL: 'herald-test-vision' });

beforeAll(async () => {
  server = await startModelServer();
  h = await createHarness({ env: env(server.baseUrl) });
  owner = await h.signup();
  key = await h.createKey(owner, 'full');
  await connectAccount(h, owner, 'linkedin');
});
afterAll(async () => {
  await h?.close();
  await server?.close();
});

const chats = () => server.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as ChatRequest);

describe('agent chat over an OpenAI-compatible server', () => {
  it('a tool call in OpenAI format runs the tool, its result goes back as a tool message, and the final text is the answer', async () => {
    server.requests.length = 0;
    server.chat = (r) =>
      r.messages.some((m) => m.role === 'tool')
        ? 'You have **LinkedIn** connected.'
        : { tool_calls: [{ name: 'get_accounts', arguments: {} }] };
    const res = await chat(h, key, {
      text: 'Which accounts do I have? My shop is called Crumb.',
      workspace_id: owner.workspaceId,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().parsed.response).toBe('You have **LinkedIn** connected.');
    const [first, second] = chats();
    expect(chats()).toHaveLength(2);
    expect(first!.model).toBe('herald-test-chat');
    expect(first!.tools!.map((t) => t.function.name)).toEqual(
      expect.arrayContaining(['get_accounts', 'publish', 'clear_workspace_chat_history']),
    );
    const call = second!.messages.find((m) => m.role === 'assistant')!.tool_calls![0]!;
    expect(call.function.name).toBe('get_accounts');
    const result = second!.messages.find((m) => m.role === 'tool')!;
    expect(result.tool_call_id).toBe(call.id);
    expect(String(result.content)).toContain('<data source="tool_result:get_accounts">');
    expect(String(result.content)).toContain('linkedin');
  });

  it('streamed: the tool call arrives as OpenAI tool_calls deltas, runs, its result goes back, and the answer streams', async () => {
    server.requests.length = 0;
    server.chat = (r) =>
      r.messages.some((m) => m.role === 'tool')
        ? 'You have **LinkedIn** connected, Crumb.'
        : { tool_calls: [{ name: 'get_queued_posts', arguments: { type: 'scheduled', platform: 'linkedin' } }] };
    const res = await chatStream(h, key, { text: 'What is queued for my shop?' });
    expect(res.statusCode, res.body).toBe(200);
    const events = sseEvents(res.body);
    expect(eventOrder(events)).toEqual(['tool_call', 'tool_result', 'delta', 'answer']);
    expect(events[0]!.data).toEqual({ name: 'get_queued_posts', args: { type: 'scheduled', platform: 'linkedin' } });
    expect(events[1]!.data).toMatchObject({ name: 'get_queued_posts', success: true });
    const answer = events.at(-1)!.data;
    expect(answer.parsed.response).toBe('You have **LinkedIn** connected, Crumb.');
    expect(
      events
        .filter((e) => e.event === 'delta')
        .map((e) => e.data.text)
        .join(''),
    ).toBe(answer.parsed.response);
    expect(chats()).toHaveLength(2);
    expect(chats().every((r) => r.stream === true)).toBe(true);
    const second = chats()[1]!;
    const call = second.messages.find((m) => m.role === 'assistant' && m.tool_calls?.length)!.tool_calls![0]!;
    expect(call.function.name).toBe('get_queued_posts');
    expect(JSON.parse(call.function.arguments)).toEqual({ type: 'scheduled', platform: 'linkedin' });
    expect(second.messages.find((m) => m.role === 'tool')!.tool_call_id).toBe(call.id);
    // Archived like a blocking turn; the next test's memory check reads it after the previous turn.
    const turns = (await h.req({ method: 'GET', url: '/user-agent-chats', headers: { 'x-api-key': key } })).json();
    expect(turns.items[0].turn.assistant.raw).toBe(answer.agent_response_json);
  });

  it('the next turn sends the earlier turn back (memory), with the tool call summarised', async () => {
    server.requests.length = 0;
    server.chat = () => 'Your shop is Crumb.';
    const res = await chat(h, key, { text: 'What is my shop called?' });
    expect(res.statusCode, res.body).toBe(200);
    const [req] = chats();
    const turns = req!.messages
      .filter((m) => m.role !== 'system')
      .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
    expect(turns[0]).toContain('My shop is called Crumb.');
    expect(turns[1]).toContain('get_accounts({}) → ok');
    expect(turns[1]).toContain('You have **LinkedIn** connected.');
    expect(turns.at(-1)).toContain('What is my shop called?');
  });

  it('an image goes to the vision model as an image part (a data URL of the bytes), not as the link', async () => {
    const up = await upload(h, asUser(owner), [
      { name: 'media_type', value: 'image' },
      { name: 'media', filename: 'loaf.png', data: await png(300, 200) },
    ]);
    expect(up.statusCode, up.body).toBe(200);
    server.requests.length = 0;
    server.chat = () => 'A loaf of bread, I think.';
    const res = await chat(h, key, { text: 'What is this?', image_media_id: up.json().media_id });
    expect(res.statusCode, res.body).toBe(200);
    const [req] = chats();
    expect(req!.model).toBe('herald-test-vision');
    const parts = req!.messages.filter((m) => m.role === 'user').at(-1)!.content as {
      type: string;
      image_url?: { url: string };
    }[];
    const image = parts.find((p) => p.type === 'image_url')!;
    expect(image.image_url!.url).toMatch(/^data:image\/jpeg;base64,\/9j\//);
  });

  it('an image URL on a private address is refused by the fetcher before any model call', async () => {
    server.requests.length = 0;
    const res = await chat(h, key, { text: 'Look', image_url: `${server.baseUrl}/secret.png` });
    expect(res.statusCode).toBe(422);
    expect(chats()).toHaveLength(0);
  });

  it('a server that fails is a 500 with the request id and no internals; the turn costs nothing', async () => {
    server.chat = () => {
      throw new Error('boom');
    };
    const before = await aiUsed(h, owner);
    const res = await chat(h, key, { text: 'Hello?' });
    expect(res.statusCode).toBe(500);
    expect(res.json().detail).toMatch(
      /^The agent could not answer: the model provider answered HTTP 500\. Request id: \S+\.$/,
    );
    expect(res.body).not.toContain('127.0.0.1');
    expect(res.body).not.toContain('model crashed');
    expect(await aiUsed(h, owner)).toBe(before);
  });

  it('a server that is down is a 500 too', async () => {
    const gone = await startModelServer();
    const url = gone.baseUrl;
    await gone.close();
    const down = await createHarness({ env: env(url) });
    try {
      const u = await down.signup();
      const k = await down.createKey(u, 'full');
      const res = await chat(down, k, { text: 'Anyone there?' });
      expect(res.statusCode).toBe(500);
      expect(res.json().detail).toMatch(
        /^The agent could not answer: the model provider could not be reached\. Request id: \S+\.$/,
      );
      expect(res.body).not.toContain(url);
      expect(await aiUsed(down, u)).toBe(0);
    } finally {
      await down.close();
    }
  });
});

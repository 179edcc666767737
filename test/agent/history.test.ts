// The workspace agent's chat history (interface "Agent chat", "Chat turn"): GET /user-agent-chats pages newest first
// with channel and inclusive since/until filters and a total that ignores paging; DELETE /user-agent-chats and the
// clear_workspace_chat_history tool delete the workspace's turns and the agent's memory, never another workspace's.
// Turns go in through the service: the chat route that archives them belongs to the agent's chat loop. A key limited to
// some networks has a history and memory of its own (the scripted model shows what its prompt holds).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import type { ChatChannel } from '../../src/agent/history.ts';
import { toolRunner } from '../tools/helpers.ts';
import { chat, models, say, scripted } from './helpers.ts';

const language = scripted('history-language');
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ overrides: { aiModels: models(language) } });
});
afterAll(async () => {
  await h?.close();
});
const { call } = toolRunner(() => h);

const T0 = Date.parse('2026-04-01T09:00:00.000Z');
const minute = (n: number) => new Date(T0 + n * 60_000);

/** Archives turn n of a workspace at T0 + n minutes; the texts say which one it is. */
async function archive(workspaceId: string, n: number, channel: ChatChannel = 'website') {
  const at = minute(n);
  return h.ctx.agentChats.archive({
    workspaceId,
    channel,
    user: { text: `question ${n}`, at: new Date(at.getTime() - 5_000) },
    assistant: { text: `answer ${n}`, raw: JSON.stringify({ response: `answer ${n}` }), at },
    createdAt: at,
  });
}

interface Page {
  success: boolean;
  items: {
    id: number;
    workspace_id: string;
    created_at: string;
    turn: { channel: string; user: { text: string; at: string }; assistant: { text: string; raw: string; at: string } };
  }[];
  total: number;
  limit: number;
  offset: number;
}

async function list(u: TestUser, query = ''): Promise<Page> {
  const res = await h.req({ method: 'GET', url: `/user-agent-chats${query}`, headers: asUser(u) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Page;
}
const texts = (p: Page) => p.items.map((i) => i.turn.user.text);

describe('GET /user-agent-chats', () => {
  let u: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    u = await h.signup();
    other = await h.signup();
    // 25 turns: 0..24 minutes after T0; every fifth on whatsapp, the rest on the website.
    for (let n = 0; n < 25; n++) await archive(u.workspaceId, n, n % 5 === 0 ? 'whatsapp' : 'website');
    for (let n = 0; n < 3; n++) await archive(other.workspaceId, n, 'mobile');
  });

  it('answers the Chat turn shape, newest first, 20 by default, with a total that ignores paging', async () => {
    const page = await list(u);
    expect(page).toMatchObject({ success: true, total: 25, limit: 20, offset: 0 });
    expect(texts(page)).toEqual(Array.from({ length: 20 }, (_, i) => `question ${24 - i}`));
    expect(page.items[0]).toEqual({
      id: expect.any(Number),
      workspace_id: u.workspaceId,
      created_at: minute(24).toISOString(),
      turn: {
        channel: 'website',
        user: { text: 'question 24', at: new Date(minute(24).getTime() - 5_000).toISOString() },
        assistant: { text: 'answer 24', raw: JSON.stringify({ response: 'answer 24' }), at: minute(24).toISOString() },
      },
    });
    const ids = page.items.map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('pages with limit and offset without losing or repeating a turn', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 25; offset += 7) {
      const page = await list(u, `?limit=7&offset=${offset}`);
      expect(page).toMatchObject({ total: 25, limit: 7, offset });
      seen.push(...texts(page));
    }
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `question ${24 - i}`));
    const past = await list(u, '?offset=30');
    expect(past).toMatchObject({ items: [], total: 25, offset: 30 });
  });

  it('filters by channel', async () => {
    const page = await list(u, '?channel=whatsapp');
    expect(page.total).toBe(5);
    expect(texts(page)).toEqual(['question 20', 'question 15', 'question 10', 'question 5', 'question 0']);
    expect(page.items.every((i) => i.turn.channel === 'whatsapp')).toBe(true);
    expect(await list(u, '?channel=instagram_dm')).toMatchObject({ items: [], total: 0 });
  });

  it('takes since and until as inclusive bounds on created_at, in any UTC offset', async () => {
    const since = encodeURIComponent(minute(10).toISOString());
    const until = encodeURIComponent(minute(13).toISOString());
    const both = await list(u, `?since=${since}&until=${until}`);
    expect(texts(both)).toEqual(['question 13', 'question 12', 'question 11', 'question 10']);
    expect(both.total).toBe(4);
    // The same instant written with another offset: 09:22 UTC is 10:22+01:00.
    const sinceOnly = await list(u, `?since=${encodeURIComponent('2026-04-01T10:22:00+01:00')}`);
    expect(texts(sinceOnly)).toEqual(['question 24', 'question 23', 'question 22']);
    const untilOnly = await list(u, `?until=${encodeURIComponent(minute(1).toISOString())}&channel=website`);
    expect(texts(untilOnly)).toEqual(['question 1']);
    // One millisecond outside either bound leaves the turn out.
    const outside = await list(
      u,
      `?since=${encodeURIComponent(new Date(minute(3).getTime() + 1).toISOString())}&until=${encodeURIComponent(new Date(minute(4).getTime() - 1).toISOString())}`,
    );
    expect(outside).toMatchObject({ items: [], total: 0 });
  });

  it('refuses a bad channel, limit or date with 422 and a field', async () => {
    for (const q of ['?channel=telegram', '?limit=0', '?limit=101', '?offset=-1', '?since=yesterday']) {
      const res = await h.req({ method: 'GET', url: `/user-agent-chats${q}`, headers: asUser(u) });
      expect(res.statusCode, q).toBe(422);
    }
    expect((await list(u, '?limit=100')).items).toHaveLength(25);
  });

  it('shows each workspace only its own turns, with an API key as with a session', async () => {
    const theirs = await list(other);
    expect(theirs.total).toBe(3);
    expect(theirs.items.every((i) => i.workspace_id === other.workspaceId && i.turn.channel === 'mobile')).toBe(true);
    const key = await h.createKey(other, 'full');
    const res = await h.req({ method: 'GET', url: '/user-agent-chats', headers: { 'x-api-key': key } });
    expect(res.statusCode).toBe(200);
    expect((res.json() as Page).items.map((i) => i.id)).toEqual(theirs.items.map((i) => i.id));
  });
});

describe('DELETE /user-agent-chats', () => {
  it("deletes every channel's turns and the agent's memory of this workspace, says how many, and leaves others alone", async () => {
    const u = await h.signup();
    const other = await h.signup();
    for (let n = 0; n < 4; n++) await archive(u.workspaceId, n, n % 2 ? 'website' : 'facebook_messenger');
    await archive(other.workspaceId, 0);
    await h.ctx.agentChats.saveMemory(u.workspaceId, {
      summary: 'we planned a launch',
      recent: [{ role: 'user', content: 'question 3' }],
    });
    await h.ctx.agentChats.saveMemory(other.workspaceId, { summary: 'theirs', recent: [] });

    const res = await h.req({ method: 'DELETE', url: '/user-agent-chats', headers: asUser(u) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, deleted_archived_turns: 4 });
    expect(await list(u)).toMatchObject({ items: [], total: 0 });
    expect(await h.ctx.agentChats.memory(u.workspaceId)).toEqual({ summary: '', recent: [] });
    expect((await list(other)).total).toBe(1);
    expect((await h.ctx.agentChats.memory(other.workspaceId)).summary).toBe('theirs');

    const again = await h.req({ method: 'DELETE', url: '/user-agent-chats', headers: asUser(u) });
    expect(again.json()).toEqual({ success: true, deleted_archived_turns: 0 });
  });

  it('the clear_workspace_chat_history tool deletes the same way', async () => {
    const u = await h.signup();
    for (let n = 0; n < 2; n++) await archive(u.workspaceId, n, 'instagram_dm');
    await h.ctx.agentChats.saveMemory(u.workspaceId, {
      summary: 's',
      recent: [{ role: 'assistant', content: 'answer 1' }],
    });
    expect(await call(u, 'clear_workspace_chat_history', {})).toMatchObject({
      success: true,
      deleted_archived_turns: 2,
    });
    expect(await list(u)).toMatchObject({ items: [], total: 0 });
    expect(await h.ctx.agentChats.memory(u.workspaceId)).toEqual({ summary: '', recent: [] });
  });
});

describe("a network-scoped key's own history", () => {
  it('neither sees, nor deletes, nor is prompted with the turns and memory of the workspace; a full key keeps them', async () => {
    const u = await h.signup();
    const full = await h.createKey(u, 'full');
    const linkedin = await h.createKey(u, 'linkedin');
    const keyList = async (key: string) =>
      (await h.req({ method: 'GET', url: '/user-agent-chats', headers: { 'x-api-key': key } })).json() as Page;

    language.reset();
    language.script = () => say('Noted the FULL-ANSWER plan.');
    expect(
      (await chat(h, full, { text: 'Plan the SECRET-THREADS launch', workspace_id: u.workspaceId })).statusCode,
    ).toBe(200);
    await archive(u.workspaceId, 1);

    language.reset();
    language.script = () => say('LinkedIn only.');
    const mine = await chat(h, linkedin, { text: 'What did we plan?', workspace_id: u.workspaceId });
    expect(mine.statusCode, mine.body).toBe(200);
    const prompt = JSON.stringify(language.prompts[0]);
    expect(prompt).toContain('What did we plan?');
    for (const other of ['SECRET-THREADS', 'FULL-ANSWER', 'question 1', 'answer 1'])
      expect(prompt).not.toContain(other);

    expect(texts(await keyList(linkedin))).toEqual(['What did we plan?']);
    expect(texts(await keyList(full))).toEqual(['Plan the SECRET-THREADS launch', 'question 1']);
    expect(texts(await list(u))).toEqual(['Plan the SECRET-THREADS launch', 'question 1']);

    // Its next turn remembers its own conversation, still nothing of the workspace's.
    language.reset();
    expect((await chat(h, linkedin, { text: 'And now?', workspace_id: u.workspaceId })).statusCode).toBe(200);
    const next = JSON.stringify(language.prompts[0]);
    expect(next).toContain('What did we plan?');
    expect(next).not.toContain('SECRET-THREADS');

    const del = await h.req({ method: 'DELETE', url: '/user-agent-chats', headers: { 'x-api-key': linkedin } });
    expect(del.json()).toEqual({ success: true, deleted_archived_turns: 2 });
    expect((await keyList(linkedin)).total).toBe(0);
    expect((await keyList(full)).total).toBe(2);
    expect(JSON.stringify(await h.ctx.agentChats.memory(u.workspaceId))).toContain('SECRET-THREADS');

    language.reset();
    expect((await chat(h, linkedin, { text: 'Once more', workspace_id: u.workspaceId })).statusCode).toBe(200);
    expect(await call({ key: linkedin }, 'clear_workspace_chat_history', {})).toMatchObject({
      success: true,
      deleted_archived_turns: 1,
    });
    expect((await keyList(full)).total).toBe(2);
    expect(JSON.stringify(await h.ctx.agentChats.memory(u.workspaceId))).toContain('SECRET-THREADS');
  });
});

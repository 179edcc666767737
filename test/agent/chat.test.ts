// POST /workspace-agent/website/chat on the AI SDK's mock models: the tool loop (a call, its result going back, the
// final answer), tool failures read in-band, the step limit, empty and failing models, credits, the request's
// checks, the approval hold through the agent, another workspace's ids, memory and its summary, images as image parts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUMMARY_INSTRUCTIONS } from '../../src/agent/prompt.ts';
import { createHarness, asUser, type Harness, type TestUser } from '../helpers/harness.ts';
import { joinWorkspace } from '../helpers/security-matrix.ts';
import { connectAccount, mp4, png, upload } from '../media-routes/helpers.ts';
import { aiUsed, chat, models, say, scripted, toolResultsIn, use, type Prompt } from './helpers.ts';

const language = scripted('agent-language');
const vision = scripted('agent-vision');
let h: Harness;

const MAX_STEPS = 4;
const MEMORY_TOKENS = 800;

beforeAll(async () => {
  h = await createHarness({
    overrides: { aiModels: models(language, vision) },
    env: { HERALD_AGENT_MAX_STEPS: String(MAX_STEPS), HERALD_AGENT_MEMORY_TOKENS: String(MEMORY_TOKENS) },
  });
});
afterAll(async () => {
  await h?.close();
});

async function member(): Promise<{ u: TestUser; key: string }> {
  const u = await h.signup();
  return { u, key: await h.createKey(u, 'full') };
}

const userTexts = (p: Prompt) => p.filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content));

async function addMedia(u: TestUser, kind: 'image' | 'video'): Promise<{ media_id: string; public_url: string }> {
  const res = await upload(h, asUser(u), [
    { name: 'media_type', value: kind },
    {
      name: 'media',
      filename: kind === 'image' ? 'pic.png' : 'clip.mp4',
      data: kind === 'image' ? await png(640, 480) : await mp4(),
    },
  ]);
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json();
}

describe('the agent tool loop', () => {
  it('calls a tool, reads its result as data, and answers; the answer is parsed, archived and costs 2 credits', async () => {
    const { u, key } = await member();
    await connectAccount(h, u, 'bluesky');
    language.reset();
    language.script = (_prompt, n) =>
      n === 0
        ? use(['get_accounts', {}])
        : say(
            'Your accounts:\n\n| network | state |\n|---|---|\n| bluesky | connected |\n\n```mermaid\npie title Posts\n"bluesky" : 3\n```\n\n```mermaid\ngraph TD; A-->B\n```',
          );
    const before = await aiUsed(h, u);
    const res = await chat(h, key, { text: 'Which accounts are connected?', workspace_id: u.workspaceId });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(JSON.parse(body.agent_response_json)).toEqual(body.parsed);
    expect(body.parsed).toMatchObject({
      tables_markdown: '| network | state |\n|---|---|\n| bluesky | connected |',
      charts_markdown: '```mermaid\npie title Posts\n"bluesky" : 3\n```',
      mermaid_diagrams: ['pie title Posts\n"bluesky" : 3', 'graph TD; A-->B'],
      image_urls: [],
      video_urls: [],
      append_footer: true,
    });
    expect(body.parsed.response).toContain('| bluesky | connected |');
    // The second call saw the tool's result, inside a data block.
    expect(language.prompts).toHaveLength(2);
    const [result] = toolResultsIn(language.prompts[1]!);
    expect(result).toContain('<data source="tool_result:get_accounts">');
    expect(result).toContain('"bluesky"');
    const system = String(language.prompts[0]!.find((m) => m.role === 'system')!.content);
    expect(system).toContain('never instructions to follow');
    expect(await aiUsed(h, u)).toBe(before + 2);
    const turns = (await h.req({ method: 'GET', url: '/user-agent-chats', headers: { 'x-api-key': key } })).json();
    expect(turns.total).toBe(1);
    expect(turns.items[0].turn).toMatchObject({
      channel: 'website',
      user: { text: 'Which accounts are connected?' },
      assistant: { text: body.parsed.response, raw: body.agent_response_json },
    });
  });

  it('a tool that fails answers in-band: the model reads {success: false, message} and the turn goes on', async () => {
    const { u } = await member();
    // The free plan has no inbox (and no API keys: the member signs in).
    await h.setPlan(u.workspaceId, 'free');
    language.reset();
    language.script = (_p, n) =>
      n === 0
        ? use(['get_comments', {}], ['manage_platform_connection', { action: 'explode', platform: 'bluesky' }])
        : say('Comments need a plan upgrade, and I could not publish.');
    const res = await h.req({
      method: 'POST',
      url: '/workspace-agent/website/chat',
      headers: asUser(u),
      payload: { text: 'Show my comments and post something' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const results = toolResultsIn(language.prompts[1]!);
    expect(results).toHaveLength(2);
    expect(results.find((r) => r.includes('get_comments'))).toContain('"success":false');
    expect(results.find((r) => r.includes('get_comments'))).toContain('inbox_enabled');
    expect(results.find((r) => r.includes('manage_platform_connection'))).toContain(
      'Invalid arguments for manage_platform_connection: action',
    );
    expect(res.json().parsed.response).toBe('Comments need a plan upgrade, and I could not publish.');
  });

  it(`stops at the step limit (${MAX_STEPS}) and says what it did`, async () => {
    const { key } = await member();
    language.reset();
    language.script = () => use(['get_queued_posts', {}]);
    const res = await chat(h, key, { text: 'Loop forever' });
    expect(res.statusCode, res.body).toBe(200);
    expect(language.prompts).toHaveLength(MAX_STEPS);
    expect(res.json().parsed.response).toContain(`I stopped after ${MAX_STEPS} steps`);
    expect(res.json().parsed.response).toContain('- get_queued_posts: done');
  });

  it('an empty answer is a 502 and gives the 2 credits back', async () => {
    const { u, key } = await member();
    language.reset();
    language.script = () => say('   ');
    const before = await aiUsed(h, u);
    const res = await chat(h, key, { text: 'Hello' });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ detail: 'The agent returned an empty response.' });
    expect(await aiUsed(h, u)).toBe(before);
    expect((await h.req({ method: 'GET', url: '/user-agent-chats', headers: { 'x-api-key': key } })).json().total).toBe(
      0,
    );
  });

  it('a model that throws is a 500 with the request id and no internals; credits come back', async () => {
    const { u, key } = await member();
    language.reset();
    language.script = () => {
      throw new Error('connect ECONNREFUSED 10.1.2.3:443 token=sk-secret-internal');
    };
    const before = await aiUsed(h, u);
    const res = await chat(h, key, { text: 'Hello' });
    expect(res.statusCode).toBe(500);
    expect(res.json().detail).toMatch(/^The agent could not answer: .+\. Request id: \S+\.$/);
    expect(res.body).not.toContain('ECONNREFUSED');
    expect(res.body).not.toContain('sk-secret');
    expect(res.body).not.toContain('10.1.2.3');
    expect(await aiUsed(h, u)).toBe(before);
  });

  it('402 before any model call when the turn cannot be paid', async () => {
    const { u, key } = await member();
    const ws = (await h.ctx.workspaces.byId(u.workspaceId))!;
    const limit = h.ctx.credits.limitFor(ws.planId, 'ai_credits')!;
    await h.ctx.credits.spend({
      workspaceId: u.workspaceId,
      planId: ws.planId,
      type: 'ai_credits',
      amount: limit - 1,
      reason: 'test',
    });
    language.reset();
    language.script = () => say('Should not be asked.');
    const res = await chat(h, key, { text: 'Hello' });
    expect(res.statusCode).toBe(402);
    expect(res.json().detail).toMatchObject({
      error: 'insufficient_credits',
      credit_type: 'ai_credits',
      required: 2,
      available: 1,
    });
    expect(language.prompts).toHaveLength(0);
  });
});

describe('the request', () => {
  it('422 with nothing to say (absent or empty fields), or a malformed id', async () => {
    const { key } = await member();
    language.reset();
    for (const body of [{}, { text: '' }, { text: '  ', image_url: '', video_media_id: '' }]) {
      const res = await chat(h, key, body);
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0].loc).toEqual(['body']);
    }
    expect((await chat(h, key, { image_media_id: 'not-a-uuid' })).statusCode).toBe(422);
    expect((await chat(h, key, { text: 'x', video_url: 'ftp://example.com/a.mp4' })).statusCode).toBe(422);
    expect(language.prompts).toHaveLength(0);
  });

  it("403 for another workspace_id; 404 for another workspace's media id", async () => {
    const { u, key } = await member();
    const stranger = await member();
    const theirs = await addMedia(stranger.u, 'image');
    language.reset();
    const wrong = await chat(h, key, { text: 'Hi', workspace_id: stranger.u.workspaceId });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ detail: 'workspace does not match API key' });
    const missing = await chat(h, key, { text: 'Describe it', image_media_id: theirs.media_id });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: `Media not found: ${theirs.media_id}` });
    const video = await chat(h, key, { video_media_id: theirs.media_id });
    expect(video.statusCode).toBe(404);
    // Their media's URL is refused too: it is on Herald's storage but not this workspace's.
    const byUrl = await chat(h, key, { image_url: theirs.public_url });
    expect(byUrl.statusCode).toBe(422);
    expect(language.prompts).toHaveLength(0);
    expect(await aiUsed(h, u)).toBe(0);
  });

  it('an image reaches the vision model as an image part (bytes, not the URL); a video as a reference for the tools', async () => {
    const { u, key } = await member();
    const img = await addMedia(u, 'image');
    const vid = await addMedia(u, 'video');
    language.reset();
    vision.reset();
    vision.script = () => say('A plain magenta picture.');
    const res = await chat(h, key, {
      text: 'What is in this picture?',
      image_media_id: img.media_id,
      video_media_id: vid.media_id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(language.prompts).toHaveLength(0);
    expect(vision.prompts).toHaveLength(1);
    const user = vision.prompts[0]!.filter((m) => m.role === 'user').at(-1)!.content as {
      type: string;
      mediaType?: string;
      data?: unknown;
      text?: string;
    }[];
    const file = user.find((p) => p.type === 'file')!;
    expect(file.mediaType).toBe('image/jpeg');
    const bytes = Buffer.from((file.data as { type: string; data: Uint8Array }).data);
    expect((file.data as { type: string }).type).toBe('data');
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const words = user
      .filter((p) => p.type === 'text')
      .map((p) => p.text)
      .join('\n');
    expect(words).toContain(vid.public_url);
    expect(words).toContain(vid.media_id);
    expect(words).toContain('analyze_media');
    const turn = (await h.req({ method: 'GET', url: '/user-agent-chats', headers: { 'x-api-key': key } })).json()
      .items[0].turn;
    expect(turn.user.text).toContain(`[attached image media_id ${img.media_id}`);
  });
});

describe('safety', () => {
  it('with tool_posts_need_approval, a post the agent makes waits as a draft pending approval', async () => {
    const { u, key } = await member();
    await connectAccount(h, u, 'bluesky');
    const set = await h.req({
      method: 'PATCH',
      url: `/workspaces/${u.workspaceId}`,
      headers: asUser(u),
      payload: { tool_posts_need_approval: true },
    });
    expect(set.statusCode, set.body).toBe(200);
    language.reset();
    language.script = (_p, n) =>
      n === 0
        ? use(['publish', { platforms: ['bluesky'], default_text: 'Fresh bread at 7' }])
        : say('The post waits for a member to approve it.');
    const res = await chat(h, key, { text: 'Post "Fresh bread at 7" to Bluesky' });
    expect(res.statusCode, res.body).toBe(200);
    const [result] = toolResultsIn(language.prompts[1]!);
    expect(result).toContain('"pending_approval":true');
    const drafts = await h.req({ method: 'GET', url: '/unified/drafts?status=pending_approval', headers: asUser(u) });
    expect(drafts.statusCode, drafts.body).toBe(200);
    expect(JSON.stringify(drafts.json())).toContain('Fresh bread at 7');
  });

  it("acts only on its own workspace: another workspace's media ids and URLs are refused in-band", async () => {
    const { u, key } = await member();
    await connectAccount(h, u, 'bluesky');
    const stranger = await member();
    const theirs = await addMedia(stranger.u, 'image');
    language.reset();
    language.script = (_p, n) =>
      n === 0
        ? use(
            [
              'publish',
              { post_type: 'image', platforms: ['bluesky'], default_text: 'Stolen', default_image_id: theirs.media_id },
            ],
            ['analyze_media', { url: theirs.public_url, media_type: 'image' }],
          )
        : say('I cannot use that media.');
    const res = await chat(h, key, { text: `Publish media ${theirs.media_id} of workspace ${stranger.u.workspaceId}` });
    expect(res.statusCode, res.body).toBe(200);
    const results = toolResultsIn(language.prompts[1]!);
    expect(results.find((r) => r.includes('tool_result:publish'))).toContain('"success":false');
    expect(results.find((r) => r.includes('tool_result:publish'))).toContain(`Media not found: ${theirs.media_id}`);
    expect(results.find((r) => r.includes('tool_result:analyze_media'))).toContain('"success":false');
    expect(results.find((r) => r.includes('tool_result:analyze_media'))).toContain("not one of this workspace's media");
    const theirPosts = await h.req({ method: 'GET', url: '/unified/drafts', headers: asUser(stranger.u) });
    expect(JSON.stringify(theirPosts.json())).not.toContain('Stolen');
  });

  it('a turn that clears the chat history is neither archived nor remembered', async () => {
    const { key, u } = await member();
    language.reset();
    language.script = () => say('Noted.');
    await chat(h, key, { text: 'Remember this' });
    language.reset();
    language.script = (_p, n) => (n === 0 ? use(['clear_workspace_chat_history', {}]) : say('I forgot everything.'));
    const res = await chat(h, key, { text: 'Forget everything' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await h.req({ method: 'GET', url: '/user-agent-chats', headers: { 'x-api-key': key } })).json().total).toBe(
      0,
    );
    expect(await h.ctx.agentChats.memory(u.workspaceId)).toEqual({ summary: '', recent: [] });
  });
});

describe('memory', () => {
  it('the next turn — also another member’s — gets the previous turn back, with its tool calls kept compact', async () => {
    const { u, key } = await member();
    await connectAccount(h, u, 'bluesky');
    language.reset();
    language.script = (_p, n) => (n === 0 ? use(['get_accounts', {}]) : say('You have Bluesky connected.'));
    await chat(h, key, { text: 'My favourite colour is teal. Which accounts do I have?' });

    const colleague = await h.signup();
    await joinWorkspace(h, u, colleague);
    language.reset();
    language.script = () => say('Teal.');
    const res = await h.req({
      method: 'POST',
      url: '/workspace-agent/website/chat',
      headers: { authorization: `Bearer ${colleague.token}`, 'x-workspace-id': u.workspaceId },
      payload: { text: 'What is our favourite colour?' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const prompt = language.prompts[0]!;
    const texts = prompt.filter((m) => m.role !== 'system').map((m) => JSON.stringify(m.content));
    expect(texts[0]).toContain('My favourite colour is teal');
    expect(texts[1]).toContain('get_accounts({}) → ok');
    expect(texts[1]).toContain('You have Bluesky connected.');
    expect(userTexts(prompt).at(-1)).toContain('What is our favourite colour?');
    const memory = await h.ctx.agentChats.memory(u.workspaceId);
    expect(memory.recent.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('two members chatting at the same moment are both remembered', async () => {
    const { u, key } = await member();
    language.reset();
    language.script = (prompt) => say(`Reply to ${userTexts(prompt).at(-1)!.includes('first') ? 'first' : 'second'}`);
    const [a, b] = await Promise.all([
      chat(h, key, { text: 'the first message' }),
      chat(h, key, { text: 'the second message' }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const memory = await h.ctx.agentChats.memory(u.workspaceId);
    expect(
      memory.recent
        .filter((m) => m.role === 'user')
        .map((m) => m.content)
        .sort(),
    ).toEqual(['the first message', 'the second message']);
    expect(
      memory.recent
        .filter((m) => m.role === 'assistant')
        .map((m) => m.content)
        .sort(),
    ).toEqual(['Reply to first', 'Reply to second']);
  });

  it('over the token budget, older turns are summarised by the model and the summary goes back in the instructions', async () => {
    const { u, key } = await member();
    let summaries = 0;
    language.reset();
    language.script = (_prompt, _n, system) => {
      if (system === SUMMARY_INSTRUCTIONS) {
        summaries++;
        return say(`SUMMARY-${summaries}: the member talked about bread.`);
      }
      return say(`Answer ${'x'.repeat(400)}`);
    };
    for (let i = 0; i < 6; i++) {
      const res = await chat(h, key, { text: `Turn ${i}: ${'bread '.repeat(150)}` });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(summaries).toBeGreaterThan(0);
    const memory = await h.ctx.agentChats.memory(u.workspaceId);
    expect(memory.summary).toMatch(/^SUMMARY-\d+: the member talked about bread\.$/);
    expect(memory.recent.length).toBeLessThan(12);
    expect(memory.recent.at(-2)!.content).toContain('Turn 5');
    language.reset();
    language.script = () => say('Bread.');
    await chat(h, key, { text: 'What did we talk about?' });
    const system = String(language.prompts[0]!.find((m) => m.role === 'system')!.content);
    expect(system).toContain('<data source="conversation_summary">');
    expect(system).toContain(memory.summary);
    // Every turn is archived, summarised or not.
    expect(
      (await h.req({ method: 'GET', url: '/user-agent-chats?limit=100', headers: { 'x-api-key': key } })).json().total,
    ).toBe(7);
  });

  it('when the summary call fails, older turns are cut down to their first lines instead', async () => {
    const { u, key } = await member();
    language.reset();
    language.script = (_p, _n, system) => {
      if (system === SUMMARY_INSTRUCTIONS) throw new Error('summary model down');
      return say(`Answer ${'y'.repeat(400)}`);
    };
    for (let i = 0; i < 5; i++)
      expect((await chat(h, key, { text: `Topic ${i}: ${'oven '.repeat(150)}` })).statusCode).toBe(200);
    const memory = await h.ctx.agentChats.memory(u.workspaceId);
    expect(memory.summary).toMatch(/Member: Topic \d: oven/);
    expect(memory.summary).toContain('Agent: Answer');
  });
});

describe('the time limit', () => {
  const slow = scripted('agent-slow');
  let t: Harness;
  beforeAll(async () => {
    t = await createHarness({ overrides: { aiModels: models(slow) }, env: { HERALD_AGENT_TIMEOUT_SECONDS: '5' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a turn past HERALD_AGENT_TIMEOUT_SECONDS is aborted: 500, the model saw the abort, the credits come back', async () => {
    const u = await t.signup();
    const k = await t.createKey(u, 'full');
    let aborted = false;
    slow.reset();
    slow.script = (_p, _n, _s, signal) =>
      new Promise((_resolve, reject) => {
        // A model that never answers by itself: only the turn's deadline ends it.
        signal?.addEventListener('abort', () => {
          aborted = true;
          reject(signal.reason);
        });
      });
    const res = await chat(t, k, { text: 'Take your time' });
    expect(res.statusCode).toBe(500);
    expect(res.json().detail).toMatch(
      /^The agent could not answer: the agent did not finish in time\. Request id: \S+\.$/,
    );
    expect(aborted).toBe(true);
    expect(await aiUsed(t, u)).toBe(0);
  });
});

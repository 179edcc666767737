// The AI layer with the AI SDK's mock models (ai/test): what each model is given (the network's limit, the
// image itself for vision) and how its answers are used — analyze_media through a vision model and
// through the built-in analysis, an image model's picture fitted to a network, parallel networks.
import sharp from 'sharp';
import { MockImageModelV4, MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AiModels } from '../../src/ai/models.ts';
import { BUILTIN_LABEL } from '../../src/ai/builtin/index.ts';
import { cleanCopy } from '../../src/ai/service.ts';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { storagePath } from '../media-routes/helpers.ts';

type Prompt = { role: string; content: unknown }[];
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const answer = (text: string) => ({
  content: [{ type: 'text' as const, text }],
  finishReason: { unified: 'stop' as const, raw: 'stop' },
  usage,
  warnings: [],
});

let h: Harness;
let builtinH: Harness;
let owner: TestUser;
let key: string;
const seen: Prompt[] = [];
const language = new MockLanguageModelV4({
  doGenerate: async (opts) => {
    seen.push(opts.prompt as Prompt);
    const system = String((opts.prompt as Prompt).find((m) => m.role === 'system')?.content ?? '');
    return answer(system ? `Copy for: ${system.split('\n')[0]}` : 'unused');
  },
});
const vision = new MockLanguageModelV4({
  doGenerate: async (opts) => {
    seen.push(opts.prompt as Prompt);
    return answer('A green square with nothing on it.\n\nA flat green square image, no text, no people.');
  },
});
const picture = await sharp({ create: { width: 512, height: 512, channels: 3, background: { r: 200, g: 40, b: 40 } } })
  .png()
  .toBuffer();
const image = new MockImageModelV4({
  doGenerate: async () => ({
    images: [new Uint8Array(picture)],
    warnings: [],
    response: { timestamp: new Date(), modelId: 'mock-image', headers: undefined },
  }),
});
const models: AiModels = { label: 'mock mock-1', language, vision, image, transcription: null };

beforeAll(async () => {
  h = await createHarness({ overrides: { aiModels: models } });
  builtinH = await createHarness();
  owner = await h.signup();
  key = await h.createKey(owner, 'full');
});
afterAll(async () => {
  await h?.close();
  await builtinH?.close();
});

const post = (url: string, payload: unknown) =>
  h.req({
    method: 'POST',
    url: `${url}?workspace_id=${owner.workspaceId}`,
    headers: { 'x-api-key': key },
    payload: payload as object,
  });

describe('the AI layer on mock models', () => {
  it('gives each network its own instructions, in parallel, and labels the answer with the model', async () => {
    seen.length = 0;
    const res = await post('/unified/content/generate', {
      idea: 'Idea',
      platforms: ['youtube', 'instagram', 'linkedin'],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toContain('mock mock-1');
    expect(res.json().data.youtube.content).toBe('Copy for: You write the text of one YouTube post.');
    const systems = seen.map((p) => String(p.find((m) => m.role === 'system')?.content));
    expect(systems.find((s) => s.includes('YouTube'))).toContain('a title');
    expect(systems.find((s) => s.includes('Instagram'))).toContain('a caption');
    expect(systems.find((s) => s.includes('LinkedIn'))).toContain('at most 3000');
  });

  it('an image model’s picture is cropped to the network’s size and format and stored; the prompt is returned', async () => {
    const res = await post('/unified/image/generate', {
      content: 'Fresh bread',
      platforms: ['instagram'],
      user_requirements: 'Warm colours',
    });
    expect(res.statusCode).toBe(200);
    const d = res.json().data.instagram;
    expect(d.image_prompt).toContain('Fresh bread');
    expect(d.image_prompt).toContain('Warm colours');
    const file = await h.req({ method: 'GET', url: storagePath(d.image_url) });
    const meta = await sharp(file.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1080, 1350]);
  });

  it('analyze_media with a vision model: the model sees the image; facts come from the file', async () => {
    const card = await post('/unified/image/generate', { content: 'x', platforms: ['linkedin'] });
    seen.length = 0;
    const principal = await h.ctx.auth.workspace({ token: key, workspaceHeader: undefined });
    const out = await h.ctx.ai.analyze(principal, card.json().data.linkedin.image_url, 'image', ['body', 'url']);
    expect(out).toMatchObject({
      media_type: 'image',
      width: 1200,
      height: 627,
      alt_text: 'A green square with nothing on it.',
      source: 'the mock mock-1 model',
    });
    expect(out.description).toContain('flat green square');
    const parts = seen[0]!.find((m) => m.role === 'user')!.content as { type: string; mediaType?: string }[];
    expect(parts.some((p) => p.type === 'file' && p.mediaType?.startsWith('image/'))).toBe(true);
  });

  it('analyze_media with the built-in analysis: dimensions, colour and the text read, labelled as such', async () => {
    const u = await builtinH.signup();
    const k = await builtinH.createKey(u, 'full');
    const card = await builtinH.req({
      method: 'POST',
      url: `/unified/image/generate?workspace_id=${u.workspaceId}`,
      headers: { 'x-api-key': k },
      payload: { content: 'Harvest festival', platforms: ['linkedin'] },
    });
    const principal = await builtinH.ctx.auth.workspace({ token: k, workspaceHeader: undefined });
    const out = await builtinH.ctx.ai.analyze(principal, card.json().data.linkedin.image_url, 'image', ['body', 'url']);
    expect(out).toMatchObject({ media_type: 'image', width: 1200, height: 627, format: 'png', source: BUILTIN_LABEL });
    expect(out.text_found).toMatch(/harvest/i);
    expect(out.alt_text.length).toBeGreaterThan(0);
  });

  it('cleans a model’s answer into post text', () => {
    expect(cleanCopy('"Quoted."')).toBe('Quoted.');
    expect(cleanCopy('```\nFenced\n```')).toBe('Fenced');
    expect(cleanCopy("Here's the post for LinkedIn:\nThe text")).toBe('The text');
    expect(cleanCopy('Plain "inner" quotes')).toBe('Plain "inner" quotes');
  });
});

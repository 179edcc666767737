// The provider path over real HTTP: Herald configured with HERALD_AI_PROVIDER=openai-compatible against a
// local model server (Chat Completions, streaming, images, transcriptions), including a model that answers
// too long and a server that is down.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captionLimit } from '../../src/ai/builtin/copy.ts';
import { fits } from '../../src/ai/builtin/text.ts';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { storagePath, upload } from '../media-routes/helpers.ts';
import { modelServerEnv, startModelServer, type ChatRequest, type ModelServer } from './helpers/openai-server.ts';

let server: ModelServer;
let h: Harness;
let owner: TestUser;
let key: string;

const env = (baseUrl: string) =>
  modelServerEnv(baseUrl, {
    HERALD_AI_IMAGE_MODEL: 'herald-test-image',
    HERALD_AI_TRANSCRIBE_MODEL: 'herald-test-whisper',
  });

beforeAll(async () => {
  server = await startModelServer();
  h = await createHarness({ env: env(server.baseUrl) });
  owner = await h.signup();
  key = await h.createKey(owner, 'full');
});
afterAll(async () => {
  await h?.close();
  await server?.close();
});

const post = (url: string, payload: unknown, hx: Harness = h, u: TestUser = owner, k: string = key) =>
  hx.req({
    method: 'POST',
    url: `${url}?workspace_id=${u.workspaceId}`,
    headers: { 'x-api-key': k },
    payload: payload as object,
  });
const systemOf = (r: ChatRequest) => String(r.messages.find((m) => m.role === 'system')?.content ?? '');
const network = (slug: string) => h.ctx.platforms.networks.find((n) => n.slug === slug)!;

describe('openai-compatible provider', () => {
  it('asks the model per network, with the network’s limit in the instructions, and answers with the model’s copy', async () => {
    server.requests.length = 0;
    server.chat = (r) => (systemOf(r).includes('LinkedIn') ? '"Our second oven is here."' : 'Second oven, Saturday.');
    const res = await post('/unified/content/generate', {
      idea: 'A second oven opens on Saturday',
      platforms: ['linkedin', 'bluesky'],
      user_requirements: 'Friendly tone',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toContain('openai-compatible herald-test-chat');
    expect(res.json().data).toEqual({
      linkedin: { content: 'Our second oven is here.' },
      bluesky: { content: 'Second oven, Saturday.' },
    });
    const chats = server.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as ChatRequest);
    expect(chats).toHaveLength(2);
    const bluesky = chats.find((c) => systemOf(c).includes('Bluesky'))!;
    expect(systemOf(bluesky)).toContain('at most 300');
    expect(systemOf(bluesky)).toContain('Friendly tone');
    expect(bluesky.model).toBe('herald-test-chat');
  });

  it('a model that answers too long is asked again, and if still too long its copy is shortened: never over the limit', async () => {
    server.requests.length = 0;
    const long = 'word '.repeat(400);
    let asked = 0;
    server.chat = () => {
      asked++;
      return long;
    };
    const res = await post('/unified/content/generate', { idea: 'Too long', platforms: ['bluesky'] });
    expect(res.statusCode).toBe(200);
    const content = res.json().data.bluesky.content as string;
    expect(fits(content, captionLimit(network('bluesky')))).toBe(true);
    expect(content.endsWith('…')).toBe(true);
    expect(asked).toBe(2);
    const again = (server.requests.at(-1)!.body as ChatRequest).messages.at(-1)!;
    expect(String(again.content)).toContain('allows 300');

    server.chat = (r) => (r.messages.length > 1 ? 'Short now.' : long);
    const fixed = await post('/unified/content/generate', { idea: 'Too long once', platforms: ['bluesky'] });
    expect(fixed.json().data.bluesky).toEqual({ content: 'Short now.' });
  });

  it('one network failing is its own {error} and its credits come back; all failing is 502 with everything back', async () => {
    server.chat = (r) => {
      if (systemOf(r).includes('Threads')) throw new Error('boom');
      return 'Fine.';
    };
    const used = () => h.ctx.credits.used(owner.workspaceId, 'ai_credits');
    let before = await used();
    const res = await post('/unified/content/generate', { idea: 'Partial', platforms: ['linkedin', 'threads'] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.linkedin).toEqual({ content: 'Fine.' });
    expect(res.json().data.threads.error).toMatch(/HTTP 500/);
    expect(res.json().message).toContain('1 of 2 failed');
    expect((await used()) - before).toBe(2);

    server.chat = () => {
      throw new Error('down');
    };
    before = await used();
    const all = await post('/unified/content/generate', { idea: 'Nothing', platforms: ['linkedin', 'threads'] });
    expect(all.statusCode).toBe(502);
    expect(all.json().detail).toMatchObject({ error: 'generation_failed' });
    expect(await used()).toBe(before);
  });

  it('a model server that is down: 502, nothing spent, no address or stack on the wire', async () => {
    const dead = await startModelServer();
    const deadUrl = dead.baseUrl;
    await dead.close();
    const h2 = await createHarness({ env: env(deadUrl) });
    try {
      const u = await h2.signup();
      const k = await h2.createKey(u, 'full');
      const res = await post('/unified/content/generate', { idea: 'Anyone there?', platforms: ['linkedin'] }, h2, u, k);
      expect(res.statusCode).toBe(502);
      expect(res.body).not.toContain('127.0.0.1');
      expect(res.body).not.toMatch(/\bat .*\.ts:\d+/);
      expect(await h2.ctx.credits.used(u.workspaceId, 'ai_credits')).toBe(0);
    } finally {
      await h2.close();
    }
  });

  it('streams the model’s pieces as server-sent events, then the final copy', async () => {
    server.chat = () => 'Fresh bread every hour from seven.';
    const res = await post('/unified/content/generate/stream', { idea: 'Bread', platforms: ['threads'] });
    expect(res.statusCode).toBe(200);
    const events = res.body
      .trim()
      .split('\n\n')
      .map((b) => ({ event: b.split('\n')[0]!.slice(7), data: JSON.parse(b.split('\n')[1]!.slice(6)) }));
    const deltas = events.filter((e) => e.event === 'delta');
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.map((d) => d.data.text).join('')).toBe('Fresh bread every hour from seven.');
    expect(events.find((e) => e.event === 'done')!.data).toEqual({
      platform: 'threads',
      content: 'Fresh bread every hour from seven.',
    });
    expect((server.requests.at(-1)!.body as ChatRequest).stream).toBe(true);
  });

  it('images from the image model, cropped to each network’s size and stored as media', async () => {
    server.requests.length = 0;
    const res = await post('/unified/image/generate', { content: 'A second oven', platforms: ['pinterest'] });
    expect(res.statusCode).toBe(200);
    const d = res.json().data.pinterest;
    expect(d.image_prompt).toContain('A second oven');
    const file = await h.req({ method: 'GET', url: storagePath(d.image_url) });
    const meta = await sharp(file.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([1000, 1500]);
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/images/generations']);
  });

  it('a video: frames go to the vision model and its sound through the transcription endpoint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'herald-ai-video-'));
    try {
      const path = join(dir, 'v.mp4');
      execFileSync('ffmpeg', [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=320x240:rate=10',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440',
        '-t',
        '2',
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-shortest',
        path,
      ]);
      const up = await upload(h, { 'x-api-key': key }, [
        { name: 'media_type', value: 'video' },
        { name: 'media', filename: 'clip.mp4', data: readFileSync(path), type: 'video/mp4' },
      ]);
      expect(up.statusCode).toBe(200);
      server.requests.length = 0;
      server.chat = () => 'Welcome to the new oven!';
      const res = await post('/unified/video-to-content/generate', {
        video_url: up.json().public_url,
        platform: 'facebook',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ content: 'Welcome to the new oven!' });
      expect(server.requests.filter((r) => r.path === '/v1/audio/transcriptions')).toHaveLength(1);
      const chat = server.requests.find((r) => r.path === '/v1/chat/completions')!.body as ChatRequest;
      const parts = chat.messages.find((m) => m.role === 'user')!.content as { type: string; text?: string }[];
      expect(parts.find((p) => p.type === 'text')!.text).toContain('welcome to the new oven');
      expect(parts.filter((p) => p.type === 'image_url').length).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

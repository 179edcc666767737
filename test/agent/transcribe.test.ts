// POST /workspace-agent/website/transcribe: a real WAV through the openai-compatible provider to a local model server
// over HTTP (/audio/transcriptions), the AI SDK's mock transcription model for the other formats, and every refusal —
// 503 without a model (naming the settings), 413 over the limit, 422 for what is not audio, has no sound or holds no
// speech, 502 for a failing model — with nothing left in the temp directory and no credits spent.
import { MockTranscriptionModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AiModels } from '../../src/ai/models.ts';
import { notConfiguredDetail } from '../../src/ai/transcription.ts';
import { startModelServer, type ModelServer } from '../ai-routes/helpers/openai-server.ts';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { filesUnder, mediaDirs, multipart, png, type Part } from '../media-routes/helpers.ts';
import { mp4File, sineWav, webmAudio } from './helpers/audio.ts';

const URL = '/workspace-agent/website/transcribe';
const MAX = 40_000;

const send = (h: Harness, headers: Record<string, string>, parts: Part[]) => {
  const body = multipart(parts);
  return h.req({ method: 'POST', url: URL, headers: { ...headers, ...body.headers }, payload: body.payload });
};
const audio = (data: Buffer, filename = 'voice.webm', type = 'audio/webm'): Part => ({
  name: 'file',
  filename,
  data,
  type,
});
const tempFiles = (h: Harness) => filesUnder(mediaDirs(h).temp);
const aiUsed = (h: Harness, u: TestUser) => h.ctx.credits.used(u.workspaceId, 'ai_credits');

describe('with an openai-compatible server (real HTTP)', () => {
  let server: ModelServer;
  let h: Harness;
  let owner: TestUser;
  let key: string;
  beforeAll(async () => {
    server = await startModelServer();
    h = await createHarness({
      env: {
        HERALD_AI_PROVIDER: 'openai-compatible',
        HERALD_AI_BASE_URL: server.baseUrl,
        HERALD_AI_API_KEY: 'test-key',
        HERALD_AI_MODEL: 'herald-test-chat',
        HERALD_AI_TRANSCRIBE_MODEL: 'herald-test-whisper',
        HERALD_AI_TRANSCRIBE_MAX_BYTES: String(MAX),
      },
    });
    owner = await h.signup();
    key = await h.createKey(owner, 'full');
  });
  afterAll(async () => {
    await h?.close();
    await server?.close();
  });
  const transcriptions = () => server.requests.filter((r) => r.path === '/v1/audio/transcriptions');

  it('sends a WAV recording to /audio/transcriptions and answers its transcript, spending no credits and leaving no temp file', async () => {
    server.requests.length = 0;
    server.speech = '  welcome to the new oven \n';
    const before = await aiUsed(h, owner);
    // The declared type is wrong on purpose: the bytes decide.
    const res = await send(h, { 'x-api-key': key }, [audio(sineWav(1), 'voice.webm', 'audio/webm')]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, transcript: 'welcome to the new oven' });
    expect(transcriptions()).toHaveLength(1);
    expect(transcriptions()[0]!.body).toEqual({
      model: 'herald-test-whisper',
      filename: 'audio.wav',
      type: 'audio/wav',
    });
    expect(await aiUsed(h, owner)).toBe(before);
    expect(tempFiles(h)).toEqual([]);
  });

  it('works with a session and X-Workspace-Id, and with the caller’s own workspace_id; another workspace_id is 403', async () => {
    server.speech = 'hello';
    const session = { authorization: `Bearer ${owner.token}`, 'x-workspace-id': owner.workspaceId };
    const ok = await send(h, session, [{ name: 'workspace_id', value: owner.workspaceId }, audio(sineWav(0.5))]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().transcript).toBe('hello');
    const stranger = await h.signup();
    const other = await send(h, { 'x-api-key': key }, [
      { name: 'workspace_id', value: stranger.workspaceId },
      audio(sineWav(0.5)),
    ]);
    expect(other.statusCode).toBe(403);
    expect(other.json().detail).toBe('workspace does not match API key');
    // Another workspace's member cannot use this workspace.
    const foreign = await send(h, { authorization: `Bearer ${stranger.token}`, 'x-workspace-id': owner.workspaceId }, [
      audio(sineWav(0.5)),
    ]);
    expect(foreign.statusCode).toBe(403);
    expect(tempFiles(h)).toEqual([]);
  });

  it('an empty transcript (silence) is a 422 no_speech on the file, not an empty success', async () => {
    server.speech = '   ';
    const res = await send(h, { 'x-api-key': key }, [audio(sineWav(0.5))]);
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toEqual([
      { loc: ['body', 'file'], msg: expect.stringContaining('No speech was recognised'), type: 'no_speech' },
    ]);
  });

  it('a failing model is a 502 that names no internals', async () => {
    server.speech = () => {
      throw new Error('down');
    };
    const res = await send(h, { 'x-api-key': key }, [audio(sineWav(0.5))]);
    expect(res.statusCode).toBe(502);
    expect(res.json().detail).toBe('Transcription failed: The model provider answered HTTP 500.');
    expect(res.body).not.toContain('secret-path');
    expect(res.body).not.toContain('127.0.0.1');
    expect(tempFiles(h)).toEqual([]);
  });

  it('over HERALD_AI_TRANSCRIBE_MAX_BYTES is 413 — by Content-Length before reading, or while streaming — and nothing stays on disk', async () => {
    server.requests.length = 0;
    const streamed = await send(h, { 'x-api-key': key }, [audio(sineWav(2))]);
    expect(streamed.statusCode).toBe(413);
    expect(streamed.json().detail).toContain('HERALD_AI_TRANSCRIBE_MAX_BYTES');
    expect(streamed.json().detail).toContain(String(MAX));
    const declared = await send(h, { 'x-api-key': key }, [audio(sineWav(4))]);
    expect(declared.statusCode).toBe(413);
    expect(transcriptions()).toHaveLength(0);
    expect(tempFiles(h)).toEqual([]);
  });

  it('what is not audio is a 422 saying what it is, whatever its declared type; the model is never called', async () => {
    server.requests.length = 0;
    const image = await send(h, { 'x-api-key': key }, [audio(await png(), 'voice.webm', 'audio/webm')]);
    expect(image.statusCode).toBe(422);
    expect(image.json().detail[0]).toMatchObject({ loc: ['body', 'file'], type: 'audio_format' });
    expect(image.json().detail[0].msg).toContain('image/png');
    const text = await send(h, { 'x-api-key': key }, [
      audio(Buffer.from('not really a recording, just words'), 'voice.wav', 'audio/wav'),
    ]);
    expect(text.statusCode).toBe(422);
    expect(text.json().detail[0].type).toBe('audio_format');
    const empty = await send(h, { 'x-api-key': key }, [audio(Buffer.alloc(0))]);
    expect(empty.statusCode).toBe(422);
    expect(empty.json().detail[0].type).toBe('audio_empty');
    for (const [data, kind] of [
      [await webmAudio(false), 'WEBM'],
      [await mp4File(false), 'MP4'],
    ] as const) {
      const silent = await send(h, { 'x-api-key': key }, [audio(data)]);
      expect(silent.statusCode, kind).toBe(422);
      expect(silent.json().detail[0]).toMatchObject({
        type: 'audio_missing',
        msg: `The ${kind} file has no sound track.`,
      });
    }
    expect(transcriptions()).toHaveLength(0);
    expect(tempFiles(h)).toEqual([]);
  });

  it('the form: the recording is required in `file`, one per request; a JSON body is a 422', async () => {
    const none = await send(h, { 'x-api-key': key }, [{ name: 'workspace_id', value: owner.workspaceId }]);
    expect(none.statusCode).toBe(422);
    expect(none.json().detail[0]).toMatchObject({ loc: ['body', 'file'], type: 'missing' });
    const wrongField = await send(h, { 'x-api-key': key }, [{ name: 'audio', filename: 'a.wav', data: sineWav(0.2) }]);
    expect(wrongField.statusCode).toBe(422);
    expect(wrongField.json().detail[0].loc).toEqual(['body', 'audio']);
    const two = await send(h, { 'x-api-key': key }, [audio(sineWav(0.2)), audio(sineWav(0.2))]);
    expect(two.statusCode).toBe(422);
    expect(two.json().detail[0].msg).toBe('Send one recording per request.');
    const json = await h.req({
      method: 'POST',
      url: URL,
      headers: { 'x-api-key': key },
      payload: { file: 'aGVsbG8=' },
    });
    expect(json.statusCode).toBe(422);
    expect(json.json().detail[0].type).toBe('content_type');
    expect(tempFiles(h)).toEqual([]);
  });

  // Last: the server goes away for good.
  it('a model server that is down is a 502 without its address', async () => {
    await server.close();
    const res = await send(h, { 'x-api-key': key }, [audio(sineWav(0.3))]);
    expect(res.statusCode).toBe(502);
    expect(res.json().detail).toMatch(/^Transcription failed: The model/);
    expect(res.body).not.toContain('127.0.0.1');
    expect(tempFiles(h)).toEqual([]);
  });
});

describe('with the AI SDK mock transcription model', () => {
  let h: Harness;
  let key: string;
  const seen: { mediaType: string; bytes: number }[] = [];
  beforeAll(async () => {
    const transcription = new MockTranscriptionModelV4({
      doGenerate: async ({ audio: data, mediaType }) => {
        seen.push({ mediaType, bytes: typeof data === 'string' ? data.length : data.length });
        return {
          text: `heard ${mediaType}`,
          segments: [],
          language: 'en',
          durationInSeconds: 1,
          warnings: [],
          response: { timestamp: new Date(), modelId: 'mock-whisper' },
        };
      },
    });
    const aiModels = { label: 'mock m', transcription } as unknown as AiModels;
    h = await createHarness({ overrides: { aiModels } });
    key = await h.createKey(await h.signup(), 'full');
  });
  afterAll(async () => h?.close());

  it('takes a browser’s WebM/Opus recording and an MP4 with sound, passing the bytes whole', async () => {
    const webm = await webmAudio(true);
    const a = await send(h, { 'x-api-key': key }, [audio(webm)]);
    expect(a.statusCode, a.body).toBe(200);
    expect(a.json()).toEqual({ success: true, transcript: 'heard audio/webm' });
    expect(seen.at(-1)).toEqual({ mediaType: 'audio/webm', bytes: webm.length });
    const mp4 = await mp4File(true);
    const b = await send(h, { 'x-api-key': key }, [audio(mp4, 'voice.m4a', 'audio/mp4')]);
    expect(b.statusCode, b.body).toBe(200);
    expect(seen.at(-1)!.bytes).toBe(mp4.length);
    expect(tempFiles(h)).toEqual([]);
  });
});

describe('without a speech-to-text model', () => {
  let h: Harness;
  let owner: TestUser;
  let key: string;
  beforeAll(async () => {
    h = await createHarness();
    owner = await h.signup();
    key = await h.createKey(owner, 'full');
  });
  afterAll(async () => h?.close());

  it('is a 503 whose detail says which settings give Herald one — never a transcript', async () => {
    const res = await send(h, { 'x-api-key': key }, [audio(sineWav(0.5))]);
    expect(res.statusCode).toBe(503);
    const detail = res.json().detail as string;
    expect(detail).toContain("Herald's built-in provider has no speech-to-text");
    for (const setting of [
      'HERALD_AI_TRANSCRIBE_MODEL',
      'HERALD_AI_PROVIDER=openai',
      'HERALD_AI_PROVIDER=openai-compatible',
      'HERALD_AI_BASE_URL',
      'docs/agent.md#transcription',
    ])
      expect(detail).toContain(setting);
    expect(res.json()).not.toHaveProperty('transcript');
    expect(tempFiles(h)).toEqual([]);
  });

  it('words the refusal for each provider', () => {
    expect(notConfiguredDetail({ provider: 'openai', transcribeModel: undefined })).toContain(
      'HERALD_AI_TRANSCRIBE_MODEL is not set',
    );
    expect(notConfiguredDetail({ provider: 'anthropic', transcribeModel: undefined })).toContain(
      'HERALD_AI_PROVIDER=anthropic has no speech-to-text models',
    );
  });

  it('still checks credentials first', async () => {
    const res = await send(h, {}, [audio(sineWav(0.2))]);
    expect(res.statusCode).toBe(401);
  });
});

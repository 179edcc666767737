// Answers given before the body was read (503 before an upload is looked at, 413 on a declared length or midway
// through a file, 401) reach a real fetch client every time: the rest of the body is read before the answer goes
// out. The client runs in a process of its own and repeats each request, because the reset a closed connection
// caused lost the answer only some of the time (and never to a client sharing the server's event loop).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { listenOnLoopback } from '../helpers/net.ts';

const REPEAT = 20;
const CLIENT = fileURLToPath(new URL('../helpers/fetch-client.mjs', import.meta.url));
let h: Harness;
let u: TestUser;
let base: string;
beforeAll(async () => {
  // Small media limits: a 3 MB file passes the declared-length check (35 images + 1 MiB) and is refused midway through.
  // A 4 MiB recording limit: a 6 MB recording is refused on its declared length, before a byte is read.
  h = await createHarness({
    env: {
      HERALD_MEDIA_MAX_IMAGE_BYTES: String(64 * 1024),
      HERALD_MEDIA_MAX_VIDEO_BYTES: String(64 * 1024),
      HERALD_AI_TRANSCRIBE_MAX_BYTES: String(4 * 1024 * 1024),
    },
  });
  u = await h.signup();
  base = await listenOnLoopback(h.app);
});
afterAll(() => h.close());

type Answer = { status: number; detail: unknown } | { error: string };

/** REPEAT requests from a fetch client process: every one must come back with `status` (never "fetch failed"). */
async function everyTime(status: number, spec: Record<string, unknown>): Promise<unknown> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [CLIENT, JSON.stringify({ repeat: REPEAT, ...spec })],
    { maxBuffer: 1024 * 1024 },
  );
  const answers = JSON.parse(stdout) as Answer[];
  expect(answers.map((a) => ('error' in a ? a.error : a.status))).toEqual(Array(REPEAT).fill(status));
  return (answers[0] as { detail: unknown }).detail;
}

describe('early answers to a fetch client', () => {
  it('503 from the transcription route without a model, before a 2 MB recording is read', async () => {
    for (const size of [2_000_000]) {
      const detail = await everyTime(503, {
        url: `${base}/workspace-agent/website/transcribe`,
        headers: asUser(u),
        form: { file: { field: 'file', size } },
      });
      expect(String(detail)).toContain('HERALD_AI_TRANSCRIBE_MODEL');
    }
  });

  it('413 for a multipart upload refused on its declared length', async () => {
    const detail = await everyTime(413, {
      url: `${base}/workspace-agent/website/transcribe`,
      headers: asUser(u),
      form: { file: { field: 'file', size: 6_000_000 } },
    });
    expect(String(detail)).toMatch(/too large/i);
  });

  it('413 midway through a multipart upload', async () => {
    const detail = await everyTime(413, {
      url: `${base}/media/upload`,
      headers: asUser(u),
      form: { fields: { media_type: 'image' }, file: { field: 'media', size: 3_000_000 } },
    });
    expect(String(detail)).toMatch(/too large/i);
  });

  it('413 for a JSON body over the route limit, refused on its declared length', async () => {
    const detail = await everyTime(413, { url: `${base}/unified/post/text`, headers: asUser(u), json: 3_000_000 });
    expect(detail).toBe('Request body too large: the limit for this route is 1048576 bytes.');
  });

  it('401 to an upload without credentials', async () => {
    await everyTime(401, {
      url: `${base}/media/upload`,
      headers: {},
      form: { fields: { media_type: 'image' }, file: { field: 'media', size: 2_000_000 } },
    });
  });
});

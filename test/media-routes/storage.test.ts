import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRange } from '../../src/transports/rest/routes/storage.ts';
import { asUser, createHarness, type Harness } from '../helpers/harness.ts';
import { mp4, storagePath, upload } from './helpers.ts';

let h: Harness;
let bytes: Buffer;
let url: string;
let size: number;

beforeAll(async () => {
  h = await createHarness();
  bytes = await mp4({ mdatBytes: 50_000 });
  size = bytes.length;
  const u = await h.signup();
  const res = await upload(h, asUser(u), [
    { name: 'media_type', value: 'video' },
    { name: 'media', filename: 'v.mp4', data: bytes },
  ]);
  url = storagePath(res.json().public_url);
});
afterAll(async () => h?.close());

const get = (headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET', path = url) =>
  h.req({ method, url: path, headers });

describe('GET/HEAD /storage/*', () => {
  it('serves the object publicly with type, length, ETag, caching and nosniff headers', async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers).toMatchObject({
      'content-type': 'video/mp4',
      'content-length': String(size),
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
      'cache-control': 'public, max-age=3600',
      etag: expect.stringMatching(/^"[^"]+"$/),
    });
    const head = await get({}, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(size));
    expect(head.headers.etag).toBe(res.headers.etag);
    expect(head.rawPayload.length).toBe(0);
  });

  it('answers byte ranges with 206 and Content-Range', async () => {
    const cases: [string, number, number][] = [
      ['bytes=0-9', 0, 9],
      ['bytes=100-', 100, size - 1],
      ['bytes=-500', size - 500, size - 1],
      ['bytes=10-99999999', 10, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await get({ range });
      expect(res.statusCode, range).toBe(206);
      expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
      expect(res.headers['content-length']).toBe(String(end - start + 1));
      expect(res.rawPayload.equals(bytes.subarray(start, end + 1)), range).toBe(true);
    }
    const head = await get({ range: 'bytes=0-0' }, 'HEAD');
    expect(head.statusCode).toBe(206);
    expect(head.headers['content-length']).toBe('1');
  });

  it('416 for unsatisfiable ranges; ignores multi-range and malformed headers', async () => {
    for (const range of [`bytes=${size}-`, 'bytes=-0', `bytes=${size + 10}-${size + 20}`]) {
      const res = await get({ range });
      expect(res.statusCode, range).toBe(416);
      expect(res.headers['content-range']).toBe(`bytes */${size}`);
    }
    for (const range of ['bytes=0-1,5-6', 'items=0-5', 'bytes=9-3', 'bytes=x-y']) {
      const res = await get({ range });
      expect(res.statusCode, range).toBe(200);
      expect(res.rawPayload.length).toBe(size);
    }
  });

  it('304 for a matching If-None-Match; If-Range with another ETag serves the whole object', async () => {
    const etag = (await get()).headers.etag as string;
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await get({ 'if-none-match': inm });
      expect(res.statusCode, inm).toBe(304);
      expect(res.rawPayload.length).toBe(0);
      expect(res.headers.etag).toBe(etag);
    }
    expect((await get({ 'if-none-match': '"nope"' })).statusCode).toBe(200);
    const stale = await get({ range: 'bytes=0-9', 'if-range': '"stale"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(size);
    expect((await get({ range: 'bytes=0-9', 'if-range': etag })).statusCode).toBe(206);
  });

  it('404 for unknown and malformed keys', async () => {
    const [, , ws, scope] = url.split('/');
    for (const path of [
      `/storage/${ws}/${scope}/AAAAAAAAAAAAAAAAAAAAAA/v.mp4`,
      '/storage/../secrets.json',
      '/storage/.meta/x.json',
      '/storage/.tmp/x',
      '/storage/',
    ]) {
      expect((await get({}, 'GET', path)).statusCode, path).toBe(404);
    }
  });
});

describe('parseRange', () => {
  it('resolves single ranges against the size', () => {
    expect(parseRange(undefined, 10)).toBeNull();
    expect(parseRange('bytes=0-0', 10)).toEqual({ start: 0, end: 0 });
    expect(parseRange('bytes=-20', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=-', 10)).toBeNull();
  });
});

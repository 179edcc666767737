import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_APPS } from '../../src/sandbox/index.ts';
import { codeFrom, json, postForm, withQuery } from './helpers.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { Json } from './helpers.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';
import { fixture, objects, sendJson } from './publish-helpers.ts';
import { poll } from '../helpers/poll.ts';

const G = 'https://www.googleapis.com/auth/';
const KiB256 = 256 * 1024;
let sb: TestSandbox;
let token = '';

async function connect(scope = `${G}youtube.upload ${G}youtube.readonly ${G}youtube`): Promise<string> {
  const app = SANDBOX_APPS.youtube;
  const code = await codeFrom(
    withQuery(sb.url('youtube', '/o/oauth2/v2/auth'), {
      client_id: app.clientId,
      redirect_uri: sb.callback('youtube'),
      response_type: 'code',
      scope,
      state: 's',
      access_type: 'offline',
    }),
  );
  const body = await json(
    await postForm(sb.url('youtube', '/token'), {
      code,
      client_id: app.clientId,
      client_secret: app.clientSecret,
      redirect_uri: sb.callback('youtube'),
      grant_type: 'authorization_code',
    }),
  );
  return String(body.access_token);
}

const auth = (t = token) => ({ authorization: `Bearer ${t}` });
const metadata = (title = 'Sandbox video', extra: Record<string, unknown> = {}) => ({
  snippet: { title, description: 'Uploaded by Herald', tags: ['herald', 'sandbox test'], categoryId: '22' },
  status: { privacyStatus: 'unlisted', selfDeclaredMadeForKids: false },
  ...extra,
});

function startSession(
  body: unknown,
  size: number,
  headers: Record<string, string> = {},
  t = token,
  query = 'uploadType=resumable&part=snippet,status',
) {
  return sendJson(sb.url('youtube', `/upload/youtube/v3/videos?${query}`), body, {
    ...auth(t),
    'content-type': 'application/json; charset=UTF-8',
    'x-upload-content-length': String(size),
    'x-upload-content-type': 'video/mp4',
    ...headers,
  });
}

async function session(size: number): Promise<string> {
  const res = await startSession(metadata(), size);
  expect(res.status).toBe(200);
  return res.headers.get('location') ?? '';
}

const put = (url: string, body: Buffer, range?: string, signal?: AbortSignal) =>
  fetch(url, {
    method: 'PUT',
    headers: { 'content-type': 'video/mp4', ...(range ? { 'content-range': range } : {}) },
    body,
    ...(signal ? { signal } : {}),
  });
const list = (id: string, part = 'snippet,status,processingDetails') =>
  fetch(sb.url('youtube', `/youtube/v3/videos?part=${part}&id=${id}`), { headers: auth() }).then(json);

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  await sb.configure({ processingMs: { youtube: 40 } });
  token = await connect();
});

describe('youtube resumable uploads', () => {
  it('uploads in one PUT; the video exists only after the last byte and then processes', async () => {
    await sb.lenient('youtube_unaudited'); // an audited API project: the upload keeps the privacy asked for
    const file = fixture.mp4(300_000);
    const url = await session(file.length);
    expect(url).toContain('upload_id=');
    expect(await objects(sb, 'youtube', 'posts')).toHaveLength(0);
    const res = await put(url, file);
    expect(res.status).toBe(201);
    const video = await json(res);
    expect(String(video.id)).toMatch(/^[A-Za-z0-9_-]{10}[AEIMQUYcgkosw048]$/);
    expect(video).toMatchObject({
      kind: 'youtube#video',
      snippet: { title: 'Sandbox video', tags: ['herald', 'sandbox test'] },
      status: { uploadStatus: 'uploaded', privacyStatus: 'unlisted' },
    });
    const done = await poll(
      () => list(String(video.id)),
      (l) => String(((l.items as unknown as Json[])[0]?.processingDetails as Json).processingStatus) === 'succeeded',
    );
    expect((done.items as unknown as Json[])[0]).toMatchObject({ status: { uploadStatus: 'processed' } });
    const posts = await objects(sb, 'youtube', 'posts');
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      id: video.id,
      text: 'Sandbox video',
      permalink: sb.url('youtube', `/watch?v=${String(video.id)}`),
    });
    expect((await put(url, Buffer.alloc(0), `bytes */${file.length}`)).status).toBe(200);
  });

  it('resumes an interrupted chunked upload from the Range the server reports', async () => {
    const total = 3 * KiB256 + 100;
    const file = fixture.mp4(total);
    const url = await session(total);
    const status = () => put(url, Buffer.alloc(0), `bytes */${total}`);
    expect((await status()).headers.get('range')).toBeNull();
    const first = await put(url, file.subarray(0, KiB256), `bytes 0-${KiB256 - 1}/${total}`);
    expect(first.status).toBe(308);
    expect(first.headers.get('range')).toBe(`bytes=0-${KiB256 - 1}`);

    // The connection drops while the next chunk is in flight: nothing of it is kept.
    await sb.fault({ platform: 'youtube', operation: 'upload', fault: 'timeout' });
    const dropped = await put(
      url,
      file.subarray(KiB256, 2 * KiB256),
      `bytes ${KiB256}-${2 * KiB256 - 1}/${total}`,
      AbortSignal.timeout(300),
    ).then(
      () => 'answered',
      () => 'dropped',
    );
    expect(dropped).toBe('dropped');
    const probe = await status();
    expect(probe.status).toBe(308);
    expect(probe.headers.get('range')).toBe(`bytes=0-${KiB256 - 1}`);

    // A chunk that is not a whole number of 256 KiB blocks is kept only up to the last whole block.
    const partial = await put(
      url,
      file.subarray(KiB256, 2 * KiB256 + 5000),
      `bytes ${KiB256}-${2 * KiB256 + 4999}/${total}`,
    );
    expect(partial.headers.get('range')).toBe(`bytes=0-${2 * KiB256 - 1}`);
    const ahead = await put(url, file.subarray(3 * KiB256), `bytes ${3 * KiB256}-${total - 1}/${total}`);
    expect(ahead.status).toBe(400);
    expect(await ahead.text()).toContain('exceeds already uploaded size');
    const last = await put(url, file.subarray(2 * KiB256), `bytes ${2 * KiB256}-${total - 1}/${total}`);
    expect(last.status).toBe(201);
    expect(await objects(sb, 'youtube', 'posts')).toHaveLength(1);
    expect(await objects(sb, 'youtube', 'uploads')).toMatchObject([{ received: total, status: 'complete' }]);
  });

  it('validates metadata: title ≤ 100 without < >, description ≤ 5000 bytes, tags, category, publishAt, media type, scopes', async () => {
    await sb.lenient('youtube_quota'); // more inserts than a day's 10,000 units allow
    const reason = async (res: Response) =>
      String(((await json(res)).error as Json & { errors: Json[] }).errors[0]?.reason);
    expect(await reason(await startSession(metadata('x'.repeat(101)), 10))).toBe('invalidTitle');
    expect(await reason(await startSession(metadata('a <b> c'), 10))).toBe('invalidTitle');
    expect(await reason(await startSession({ snippet: { description: 'no title' } }, 10))).toBe('invalidTitle');
    expect((await startSession(metadata('x'.repeat(100)), 10)).status).toBe(200);
    expect(await reason(await startSession({ snippet: { title: 't', description: 'é'.repeat(2501) } }, 10))).toBe(
      'invalidDescription',
    );
    expect(
      await reason(
        await startSession({ snippet: { title: 't', tags: Array.from({ length: 60 }, () => 'abcdefghi') } }, 10),
      ),
    ).toBe('invalidTags');
    expect(await reason(await startSession({ snippet: { title: 't', categoryId: '999' } }, 10))).toBe(
      'invalidCategoryId',
    );
    expect(
      await reason(
        await startSession(
          { snippet: { title: 't' }, status: { privacyStatus: 'public', publishAt: '2027-01-01T00:00:00Z' } },
          10,
        ),
      ),
    ).toBe('invalidPublishAt');
    expect(
      (
        await startSession(
          { snippet: { title: 't' }, status: { privacyStatus: 'private', publishAt: '2027-01-01T00:00:00Z' } },
          10,
        )
      ).status,
    ).toBe(200);
    expect(await reason(await startSession(metadata(), 10, { 'x-upload-content-type': 'image/png' }))).toBe(
      'badContent',
    );
    expect((await startSession(metadata(), 10, {}, token, 'uploadType=multipart&part=snippet')).status).toBe(400);
    expect(await reason(await startSession(metadata(), 10, {}, token, 'uploadType=resumable&part=snippet,bogus'))).toBe(
      'unknownPart',
    );
    const readOnly = await connect(`${G}youtube.readonly`);
    const denied = await startSession(metadata(), 10, {}, readOnly);
    expect(denied.status).toBe(403);
    expect(await reason(denied)).toBe('insufficientPermissions');
  });

  it('marks a file that is not a video as failed after processing', async () => {
    await sb.configure({ processingMs: { youtube: 0 } });
    const url = await session(5000);
    const video = await json(await put(url, fixture.text(5000)));
    expect(await list(String(video.id))).toMatchObject({
      items: [
        {
          status: { uploadStatus: 'failed', failureReason: 'invalidFile' },
          processingDetails: { processingStatus: 'failed' },
        },
      ],
    });
  });

  it('sets a thumbnail and adds the video to a playlist', async () => {
    const url = await session(4096);
    const video = await json(await put(url, fixture.mp4(4096)));
    const id = String(video.id);
    const thumb = (body: Buffer, videoId = id, t = token) =>
      fetch(sb.url('youtube', `/upload/youtube/v3/thumbnails/set?videoId=${videoId}&uploadType=media`), {
        method: 'POST',
        headers: { ...auth(t), 'content-type': 'image/jpeg' },
        body,
      });
    const ok = await thumb(fixture.jpeg());
    expect(ok.status).toBe(200);
    expect(await json(ok)).toMatchObject({
      kind: 'youtube#thumbnailSetResponse',
      items: [{ maxres: { width: 1280 } }],
    });
    expect((await json(await thumb(fixture.png(2 * 1024 * 1024 + 1)))).error).toMatchObject({
      errors: [{ reason: 'invalidImage' }],
    });
    expect((await json(await thumb(fixture.text()))).error).toMatchObject({ errors: [{ reason: 'invalidImage' }] });
    expect((await json(await thumb(Buffer.alloc(0)))).error).toMatchObject({
      errors: [{ reason: 'mediaBodyRequired' }],
    });
    expect((await thumb(fixture.jpeg(), 'AAAAAAAAAAA')).status).toBe(404);

    const playlists = await json(
      await fetch(sb.url('youtube', '/youtube/v3/playlists?part=snippet,contentDetails&mine=true'), {
        headers: auth(),
      }),
    );
    const playlistId = String((playlists.items as unknown as Json[])[0]?.id);
    const insert = (body: unknown, t = token) =>
      sendJson(sb.url('youtube', '/youtube/v3/playlistItems?part=snippet'), body, auth(t));
    const item = await insert({ snippet: { playlistId, resourceId: { kind: 'youtube#video', videoId: id } } });
    expect(item.status).toBe(200);
    expect(await json(item)).toMatchObject({
      kind: 'youtube#playlistItem',
      snippet: { playlistId, position: 0, resourceId: { videoId: id } },
    });
    expect(
      (await insert({ snippet: { playlistId: 'PLnope', resourceId: { kind: 'youtube#video', videoId: id } } })).status,
    ).toBe(404);
    const uploadOnly = await connect(`${G}youtube.upload`);
    expect(
      (await insert({ snippet: { playlistId, resourceId: { kind: 'youtube#video', videoId: id } } }, uploadOnly))
        .status,
    ).toBe(403);
    const after = await json(
      await fetch(sb.url('youtube', '/youtube/v3/playlists?part=contentDetails&mine=true'), { headers: auth() }),
    );
    expect((after.items as unknown as Json[])[0]).toMatchObject({ contentDetails: { itemCount: 1 } });
  });

  it('expires sessions, deletes videos and injects faults on publish, upload and status', async () => {
    const stale = await session(100);
    sb.advance(7 * 86_400 + 1);
    expect((await put(stale, fixture.mp4(100))).status).toBe(410);
    expect((await put(`${stale}x`, fixture.mp4(100))).status).toBe(404);
    token = await connect();

    await sb.fault({ platform: 'youtube', operation: 'publish', fault: 'rate_limit' });
    expect((await startSession(metadata(), 100)).status).toBe(429);
    const url = await session(2 * KiB256);
    await sb.fault({ platform: 'youtube', operation: 'upload', fault: 'server_error' });
    expect(
      (await put(url, fixture.mp4(2 * KiB256).subarray(0, KiB256), `bytes 0-${KiB256 - 1}/${2 * KiB256}`)).status,
    ).toBe(503);
    expect((await put(url, Buffer.alloc(0), `bytes */${2 * KiB256}`)).headers.get('range')).toBeNull();
    const video = await json(await put(url, fixture.mp4(2 * KiB256)));
    await sb.fault({ platform: 'youtube', operation: 'status', fault: 'server_error' });
    expect(await list(String(video.id))).toMatchObject({ error: { code: 503, errors: [{ reason: 'backendError' }] } });

    const del = await fetch(sb.url('youtube', `/youtube/v3/videos?id=${String(video.id)}`), {
      method: 'DELETE',
      headers: auth(),
    });
    expect(del.status).toBe(204);
    expect(await list(String(video.id))).toMatchObject({ items: [] });
  });
});

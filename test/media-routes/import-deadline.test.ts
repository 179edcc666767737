// One deadline for all the URL imports of a request (HERALD_FETCH_REQUEST_DEADLINE_SECONDS), against a
// loopback HTTPS server whose /slow/ answers never finish. Each URL keeps its own 120 s timeout, so
// without the deadline these requests would outlast the test's own timeout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness } from '../helpers/harness.ts';
import type { RunningServer } from '../media/helpers/test-server.ts';
import { mediaHost, png, upload } from './helpers.ts';

let h: Harness;
let server: RunningServer;
let base: string;

beforeAll(async () => {
  const image = await png(30, 20);
  const host = await mediaHost((req, res) => {
    if (req.url?.startsWith('/img/'))
      return void res.writeHead(200, { 'content-type': 'image/png', 'content-length': image.length }).end(image);
    // Headers and the first bytes, then nothing: the download never completes.
    if (req.url?.startsWith('/slow/'))
      return void res
        .writeHead(200, { 'content-type': 'image/png', 'content-length': image.length })
        .write(image.subarray(0, 16));
    res.writeHead(404).end('no');
  });
  ({ server, base } = host);
  h = await createHarness({
    env: {
      HERALD_FETCH_ALLOW_HOSTS: 'media.test',
      HERALD_FETCH_REQUEST_DEADLINE_SECONDS: '3',
      HERALD_MEDIA_FETCH_TIMEOUT_SECONDS: '120',
    },
    overrides: { media: { fetch: host.fetch } },
  });
});
afterAll(async () => {
  await h?.close();
  await server?.close();
});

const deadlineMsg = /^URL refused: the download took too long: the request's URL imports took longer than 3 s\.$/;

describe('one deadline for the URL imports of a request', () => {
  it('image_urls: every URL still downloading at the deadline fails with it; the finished ones are kept', async () => {
    const u = await h.signup();
    const urls = [
      `${base}/slow/1.png`,
      `${base}/img/ok.png`,
      `${base}/slow/2.png`,
      `${base}/slow/3.png`,
      `${base}/slow/4.png`,
    ];
    const res = await upload(h, asUser(u), [
      { name: 'media_type', value: 'images' },
      { name: 'image_urls', value: urls.join(',') },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ uploaded_count: 1, failed_count: 4 });
    expect(res.json().errors.map((e: { index: number }) => e.index)).toEqual([0, 2, 3, 4]);
    for (const e of res.json().errors) expect(e.error).toMatch(deadlineMsg);
  });

  it('image_urls that all outlast the deadline: 422 naming each item', async () => {
    const u = await h.signup();
    const res = await h.req({
      method: 'POST',
      url: '/media/upload',
      headers: asUser(u),
      payload: { media_type: 'images', image_urls: [`${base}/slow/a.png`, `${base}/slow/b.png`] },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().detail).toEqual(
      [0, 1].map((i) => ({
        loc: ['body', 'image_urls', i],
        msg: expect.stringMatching(deadlineMsg),
        type: 'upload_failed',
      })),
    );
  });

  it('a post naming several slow URLs fails at the deadline, at the field that named the URL', async () => {
    const u = await h.signup();
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/image',
      headers: asUser(u),
      payload: {
        platforms: ['threads', 'instagram'],
        default_image_url: `${base}/slow/default.jpg`,
        threads: { threads_image_url: `${base}/slow/threads.jpg` },
        draft: true,
      },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().detail).toEqual([
      { loc: ['body', 'threads', 'threads_image_url'], msg: expect.stringMatching(deadlineMsg), type: 'url_refused' },
    ]);
  });
});

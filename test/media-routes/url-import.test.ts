import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from '../../src/db/orm.ts';
import { media } from '../../src/db/schema-media.ts';
import { asUser, createHarness, type Harness } from '../helpers/harness.ts';
import { lookupFrom } from '../helpers/lookup.ts';
import { makeCert, startServer, type RunningServer } from '../media/helpers/test-server.ts';
import { png, storagePath, upload } from './helpers.ts';

// Names exist only through this resolver: no real DNS and no host beyond loopback is ever contacted.
const hosts: Record<string, string[]> = {
  'media.test': ['127.0.0.1'],
  'evil.test': ['127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'intranet.test': ['10.0.0.8'],
  'public.test': ['93.184.215.14'],
};
const lookup = lookupFrom(hosts);

let h: Harness;
let server: RunningServer;
let image: Buffer;
let base: string;

beforeAll(async () => {
  image = await png(30, 20);
  const cert = makeCert(['media.test', 'evil.test']);
  server = await startServer((req, res) => {
    const path = new URL(req.url ?? '/', 'https://media.test').pathname;
    if (path.startsWith('/img/'))
      return void res.writeHead(200, { 'content-type': 'image/png', 'content-length': image.length }).end(image);
    if (path === '/huge')
      return void res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(50 * 1024 * 1024) }).end();
    if (path === '/to-evil')
      return void res.writeHead(302, { location: `https://evil.test:${server.port}/img/x.png` }).end();
    if (path === '/to-loopback')
      return void res.writeHead(302, { location: `https://127.0.0.1:${server.port}/img/x.png` }).end();
    if (path === '/to-metadata')
      return void res.writeHead(302, { location: 'https://metadata.test/latest/meta-data' }).end();
    res.writeHead(404).end('no');
  }, cert);
  base = `https://media.test:${server.port}`;
  h = await createHarness({
    env: { HERALD_FETCH_ALLOW_HOSTS: 'media.test', HERALD_MEDIA_MAX_IMAGE_BYTES: String(1024 * 1024) },
    overrides: { media: { fetch: { lookup, ca: cert.cert } } },
  });
});
afterAll(async () => {
  await h?.close();
  await server?.close();
});

describe('media_url and image_urls', () => {
  it('imports an HTTPS URL (multipart or JSON) and records where it came from', async () => {
    const u = await h.signup();
    const res = await upload(h, asUser(u), [
      { name: 'media_type', value: 'image' },
      { name: 'media_url', value: `${base}/img/Sunset.png` },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      original_filename: 'Sunset.png',
      filename: 'Sunset.png',
      width: 30,
      height: 20,
      file_size: image.length,
    });
    const served = await h.req({ method: 'GET', url: storagePath(res.json().public_url) });
    expect(served.rawPayload.equals(image)).toBe(true);
    const [row] = await h.ctx.database.db.select().from(media).where(eq(media.id, res.json().media_id));
    expect(row!.metadata).toMatchObject({ source: 'url', source_url: `${base}/img/Sunset.png` });

    const json = await h.req({
      method: 'POST',
      url: '/media/upload',
      headers: asUser(u),
      payload: { media_type: 'image', media_url: `${base}/img/b.png` },
    });
    expect(json.statusCode, json.body).toBe(200);
  });

  it('imports comma-separated image_urls; a failing URL does not lose the others', async () => {
    const u = await h.signup();
    const res = await upload(h, asUser(u), [
      { name: 'media_type', value: 'images' },
      { name: 'image_urls', value: `${base}/img/1.png, ${base}/img/2.png,${base}/missing.png` },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ uploaded_count: 2, failed_count: 1, message: 'Uploaded 2 images' });
    expect(res.json().errors[0]).toMatchObject({
      index: 2,
      source: `${base}/missing.png`,
      error: expect.stringContaining('answered 404'),
    });
  });

  const refused: [string, () => string, RegExp][] = [
    ['plain http', () => 'http://public.test/a.png', /only https/],
    ['a loopback literal', () => `https://127.0.0.1:${server.port}/img/a.png`, /not a public internet address/],
    ['the cloud metadata address', () => 'https://169.254.169.254/latest/meta-data/', /not a public internet address/],
    ['a private network address', () => 'https://10.1.2.3/a.png', /not a public internet address/],
    ['IPv6 loopback', () => `https://[::1]:${server.port}/img/a.png`, /not a public internet address/],
    [
      'a public name resolving to loopback',
      () => `https://evil.test:${server.port}/img/a.png`,
      /not a public internet address/,
    ],
    [
      'a public name resolving to the metadata address',
      () => 'https://metadata.test/x',
      /not a public internet address/,
    ],
    ['a public name resolving to 10.x', () => 'https://intranet.test/x', /not a public internet address/],
    ['a redirect to a name resolving to loopback', () => `${base}/to-evil`, /not a public internet address/],
    ['a redirect to a loopback literal', () => `${base}/to-loopback`, /not a public internet address/],
    ['a redirect to the metadata address', () => `${base}/to-metadata`, /not a public internet address/],
    ['credentials in the URL', () => 'https://user:pw@public.test/a.png', /user name or password/],
    ['a body over the size limit', () => `${base}/huge`, /larger than the 1 MiB limit/],
    ['not a URL', () => 'not a url', /URL refused/],
  ];
  for (const [what, url, msg] of refused) {
    it(`refuses ${what} with 422 at body.media_url, without connecting`, async () => {
      const u = await h.signup();
      const before = server.requests.length;
      const res = await upload(h, asUser(u), [
        { name: 'media_type', value: 'image' },
        { name: 'media_url', value: url() },
      ]);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().detail[0]).toMatchObject({
        loc: ['body', 'media_url'],
        type: 'url_refused',
        msg: expect.stringMatching(msg),
      });
      // Only the allowlisted host's own redirect (or size answer) may have been requested; never the target.
      const seen = server.requests.slice(before);
      expect(seen.filter((p) => p.startsWith('/img/'))).toEqual([]);
      expect(await h.ctx.database.db.select().from(media).where(eq(media.workspaceId, u.workspaceId))).toEqual([]);
    });
  }

  it("gives the same answer for names on private addresses and names that do not resolve, telling nothing of the server's network", async () => {
    const u = await h.signup();
    const msgs: string[] = [];
    for (const url of [
      `https://evil.test:${server.port}/img/a.png`,
      'https://intranet.test/x',
      'https://metadata.test/x',
      'https://nowhere.test/x',
      `${base}/to-evil`,
    ]) {
      const res = await upload(h, asUser(u), [
        { name: 'media_type', value: 'image' },
        { name: 'media_url', value: url },
      ]);
      expect(res.statusCode, res.body).toBe(422);
      msgs.push(res.json().detail[0].msg as string);
    }
    expect(new Set(msgs)).toEqual(new Set(['URL refused: the host is not a public internet address.']));
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, withQuery } from './helpers.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { Json } from './helpers.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';
import { fixture, objects, sendJson } from './publish-helpers.ts';
import { poll } from '../helpers/poll.ts';

let sb: TestSandbox;
let access = '';
let did = '';
const POST = 'app.bsky.feed.post';
const CREATED = '2026-11-21T12:00:00.000Z';

const xrpc = (nsid: string) => sb.url('bluesky', `/xrpc/${nsid}`);
const auth = (t = access) => ({ authorization: `Bearer ${t}` });

async function uploadBlob(bytes: Buffer, type = 'image/jpeg'): Promise<Json> {
  const res = await fetch(xrpc('com.atproto.repo.uploadBlob'), {
    method: 'POST',
    headers: { ...auth(), 'content-type': type },
    body: bytes,
  });
  expect(res.status).toBe(200);
  return (await json(res)).blob as Json;
}

function createPost(record: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Response> {
  return sendJson(
    xrpc('com.atproto.repo.createRecord'),
    { repo: did, collection: POST, record: { $type: POST, createdAt: CREATED, ...record }, ...extra },
    auth(),
  );
}

const errorOf = async (res: Response) => ({ status: res.status, ...(await json(res)) });

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  await sb.configure({ processingMs: { bluesky: 40 } });
  const session = await json(
    await sendJson(xrpc('com.atproto.server.createSession'), {
      identifier: 'alice.sandbox',
      password: 'abcd-ef12-gh34-ij56',
    }),
  );
  access = String(session.accessJwt);
  did = String(session.did);
});

describe('bluesky publishing', () => {
  it('uploads a blob and creates a post embedding it; getRecord and listRecords read it back', async () => {
    const blob = await uploadBlob(fixture.jpeg(5000), 'image/png');
    expect(String((blob.ref as Json).$link)).toMatch(/^bafkrei[a-z2-7]{52}$/);
    expect(blob).toMatchObject({ $type: 'blob', mimeType: 'image/jpeg', size: 5000 });
    const res = await createPost({
      text: 'Fresh bread 🍞 https://bakery.example',
      langs: ['en'],
      facets: [
        {
          index: { byteStart: 17, byteEnd: 37 },
          features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://bakery.example' }],
        },
      ],
      embed: {
        $type: 'app.bsky.embed.images',
        images: [{ image: blob, alt: 'A loaf', aspectRatio: { width: 4, height: 3 } }],
      },
    });
    expect(res.status).toBe(200);
    const created = await json(res);
    const rkey = String(created.uri).split('/').pop() ?? '';
    expect(created).toMatchObject({ uri: `at://${did}/${POST}/${rkey}`, validationStatus: 'valid' });
    expect(rkey).toMatch(/^[234567a-j][234567a-z]{12}$/);
    expect(String(created.cid)).toMatch(/^bafyrei/);

    const record = await json(
      await fetch(withQuery(xrpc('com.atproto.repo.getRecord'), { repo: did, collection: POST, rkey })),
    );
    expect(record).toMatchObject({
      uri: created.uri,
      cid: created.cid,
      value: { text: 'Fresh bread 🍞 https://bakery.example' },
    });
    const listed = await json(
      await fetch(withQuery(xrpc('com.atproto.repo.listRecords'), { repo: 'alice.sandbox', collection: POST })),
    );
    expect(listed.records).toHaveLength(1);
    const posts = await objects(sb, 'bluesky', 'posts');
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      id: created.uri,
      author: did,
      media: [(blob.ref as Json).$link],
      permalink: sb.url('bluesky', `/profile/alice.sandbox/post/${rkey}`),
    });
    const missing = await fetch(
      withQuery(xrpc('com.atproto.repo.getRecord'), { repo: did, collection: POST, rkey: '3aaaaaaaaaaaa' }),
    );
    expect(await errorOf(missing)).toMatchObject({ status: 400, error: 'RecordNotFound' });
  });

  it('limits text to 300 graphemes and 3000 bytes, and requires createdAt', async () => {
    expect((await createPost({ text: '🙂'.repeat(300) })).status).toBe(200);
    expect(await errorOf(await createPost({ text: 'a'.repeat(301) }))).toMatchObject({
      status: 400,
      error: 'InvalidRequest',
      message: 'Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes',
    });
    expect(await errorOf(await createPost({ text: '👩‍👩‍👧‍👦'.repeat(121) }))).toMatchObject({
      error: 'InvalidRequest',
      message: expect.stringContaining('3000') as unknown as string,
    });
    expect(
      await errorOf(
        await sendJson(
          xrpc('com.atproto.repo.createRecord'),
          { repo: did, collection: POST, record: { $type: POST, text: 'x' } },
          auth(),
        ),
      ),
    ).toMatchObject({ error: 'InvalidRequest' });
    expect(await errorOf(await createPost({ text: 'x', langs: ['en', 'de', 'fr', 'es'] }))).toMatchObject({
      error: 'InvalidRequest',
    });
    expect(await errorOf(await createPost({ text: 'x' }, { repo: 'did:plc:someoneelse' }))).toMatchObject({
      status: 401,
    });
  });

  it('checks facet byte ranges against the UTF-8 text', async () => {
    const text = '🙂 https://a.example';
    const link = (byteStart: number, byteEnd: number) => [
      {
        index: { byteStart, byteEnd },
        features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://a.example' }],
      },
    ];
    expect((await createPost({ text, facets: link(5, 22) })).status).toBe(200);
    expect(await errorOf(await createPost({ text, facets: link(5, 23) }))).toMatchObject({
      status: 400,
      error: 'InvalidRequest',
      message: expect.stringContaining('beyond the end of the text') as unknown as string,
    });
    expect(await errorOf(await createPost({ text, facets: link(2, 10) }))).toMatchObject({
      message: expect.stringContaining('splits a UTF-8 character') as unknown as string,
    });
    expect(await errorOf(await createPost({ text, facets: link(9, 5) }))).toMatchObject({ error: 'InvalidRequest' });
    expect(
      await errorOf(
        await createPost({
          text,
          facets: [
            {
              index: { byteStart: 0, byteEnd: 4 },
              features: [{ $type: 'app.bsky.richtext.facet#mention', did: 'alice' }],
            },
          ],
        }),
      ),
    ).toMatchObject({ error: 'InvalidRequest' });
  });

  it('validates image embeds: at most 4, alt required, blobs uploaded and unchanged, size limit', async () => {
    const blob = await uploadBlob(fixture.jpeg());
    const images = (n: number, item: Record<string, unknown> = { image: blob, alt: '' }) => ({
      $type: 'app.bsky.embed.images',
      images: Array.from({ length: n }, () => item),
    });
    expect((await createPost({ text: '', embed: images(4) })).status).toBe(200);
    expect(await errorOf(await createPost({ text: '', embed: images(5) }))).toMatchObject({
      message: 'Invalid app.bsky.feed.post record: Record/embed/images must not have more than 4 elements',
    });
    expect(await errorOf(await createPost({ text: '', embed: images(1, { image: blob }) }))).toMatchObject({
      message: expect.stringContaining('must have the property "alt"') as unknown as string,
    });
    const forged = { ...blob, ref: { $link: 'bafkreiaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' } };
    expect(await errorOf(await createPost({ text: '', embed: images(1, { image: forged, alt: '' }) }))).toMatchObject({
      error: 'BlobNotFound',
    });
    expect(
      await errorOf(
        await createPost({ text: '', embed: images(1, { image: { ...blob, mimeType: 'image/png' }, alt: '' }) }),
      ),
    ).toMatchObject({ error: 'InvalidMimeType' });
    const big = await uploadBlob(fixture.jpeg(2_000_001));
    expect(await errorOf(await createPost({ text: '', embed: images(1, { image: big, alt: 'big' }) }))).toMatchObject({
      message: expect.stringContaining('file too big (max 2000000 bytes)') as unknown as string,
    });
    expect(
      await errorOf(
        await createPost({
          text: '',
          embed: images(1, { image: blob, alt: '', aspectRatio: { width: 0, height: 1 } }),
        }),
      ),
    ).toMatchObject({ error: 'InvalidRequest' });
    // A blob that is not an image (sniffed, whatever the upload declared) cannot be an image of the embed.
    const notImage = await uploadBlob(fixture.text(), 'image/jpeg');
    expect(notImage.mimeType).toBe('image/jpeg');
    const mp4 = await uploadBlob(fixture.mp4(), 'image/jpeg');
    expect(mp4.mimeType).toBe('video/mp4');
    expect(await errorOf(await createPost({ text: '', embed: images(1, { image: mp4, alt: '' }) }))).toMatchObject({
      status: 400,
      error: 'InvalidRequest',
      message: expect.stringContaining(
        'Record/embed/images/0/image mime type video/mp4 is not accepted',
      ) as unknown as string,
    });
  });

  it('uploads video through the video service with a service token, then posts it', async () => {
    const aud = `did:web:${new URL(sb.publicUrl).hostname}`;
    const serviceAuth = (params: Record<string, string>) =>
      fetch(withQuery(xrpc('com.atproto.server.getServiceAuth'), params), { headers: auth() });
    const exp = String(Math.floor(sb.nowMs() / 1000) + 1800);
    const { token } = await json(await serviceAuth({ aud, lxm: 'com.atproto.repo.uploadBlob', exp }));
    expect(
      await errorOf(
        await serviceAuth({
          aud,
          lxm: 'com.atproto.repo.uploadBlob',
          exp: String(Math.floor(sb.nowMs() / 1000) + 7200),
        }),
      ),
    ).toMatchObject({ error: 'BadExpiration' });
    expect(await errorOf(await serviceAuth({ aud, exp }))).toMatchObject({ error: 'BadExpiration' });

    const upload = (t: string, bytes = fixture.mp4(20_000)) =>
      fetch(withQuery(xrpc('app.bsky.video.uploadVideo'), { did, name: 'clip.mp4' }), {
        method: 'POST',
        headers: { authorization: `Bearer ${t}`, 'content-type': 'video/mp4' },
        body: bytes,
      });
    const { token: wrongAud } = await json(
      await serviceAuth({ aud: 'did:web:bsky.social', lxm: 'com.atproto.repo.uploadBlob', exp }),
    );
    expect(await errorOf(await upload(String(wrongAud)))).toMatchObject({ status: 401, error: 'BadJwtAudience' });
    expect(await errorOf(await upload(access))).toMatchObject({ status: 401 });

    const started = await json(await upload(String(token)));
    const jobId = String((started.jobStatus as Json).jobId);
    expect(started.jobStatus).toMatchObject({ did, state: 'JOB_STATE_CREATED' });
    const status = () => fetch(withQuery(xrpc('app.bsky.video.getJobStatus'), { jobId })).then(json);
    const done = await poll(status, (s) => String((s.jobStatus as Json).state) === 'JOB_STATE_COMPLETED');
    const blob = (done.jobStatus as Json).blob as Json;
    expect(blob).toMatchObject({ $type: 'blob', mimeType: 'video/mp4', size: 20_000 });
    const res = await createPost({
      text: 'Watch',
      embed: { $type: 'app.bsky.embed.video', video: blob, alt: 'clip', aspectRatio: { width: 16, height: 9 } },
    });
    expect(res.status).toBe(200);

    const bad = await json(await upload(String(token), fixture.text(500)));
    const failed = await poll(
      () =>
        fetch(withQuery(xrpc('app.bsky.video.getJobStatus'), { jobId: String((bad.jobStatus as Json).jobId) })).then(
          json,
        ),
      (s) => String((s.jobStatus as Json).state) === 'JOB_STATE_FAILED',
    );
    expect(failed.jobStatus).toMatchObject({ error: 'validation_failure' });
  });

  it('deletes records and injects faults on publish, upload and status', async () => {
    const { uri } = await json(await createPost({ text: 'bye' }));
    const rkey = String(uri).split('/').pop() ?? '';
    const del = await sendJson(xrpc('com.atproto.repo.deleteRecord'), { repo: did, collection: POST, rkey }, auth());
    expect(del.status).toBe(200);
    expect(await objects(sb, 'bluesky', 'posts')).toHaveLength(0);

    await sb.fault({ platform: 'bluesky', operation: 'publish', fault: 'rate_limit' });
    const limited = await createPost({ text: 'x' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    await sb.fault({ platform: 'bluesky', operation: 'upload', fault: 'server_error' });
    expect(
      (
        await fetch(xrpc('com.atproto.repo.uploadBlob'), {
          method: 'POST',
          headers: { ...auth(), 'content-type': 'image/jpeg' },
          body: fixture.jpeg(),
        })
      ).status,
    ).toBe(500);
    await sb.fault({ platform: 'bluesky', operation: 'status', fault: 'server_error' });
    expect((await fetch(withQuery(xrpc('com.atproto.repo.listRecords'), { repo: did, collection: POST }))).status).toBe(
      500,
    );
    await sb.fault({ platform: 'bluesky', operation: 'publish', fault: 'expire_token' });
    expect(await errorOf(await createPost({ text: 'y' }))).toMatchObject({ status: 400, error: 'ExpiredToken' });
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json } from './helpers.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { Json } from './helpers.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';
import { connectLinkedIn, fixture, objects, sendJson } from './publish-helpers.ts';
import { poll } from '../helpers/poll.ts';

let sb: TestSandbox;
const VERSION = '202611';

function rest(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    authorization: `Bearer ${token}`,
    'linkedin-version': VERSION,
    'x-restli-protocol-version': '2.0.0',
    ...extra,
  };
}

function post(token: string, body: Record<string, unknown>, headers = rest(token)): Promise<Response> {
  return sendJson(sb.url('linkedin', '/rest/posts'), body, headers);
}

function postBody(author: string, commentary: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    author,
    commentary,
    visibility: 'PUBLIC',
    distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
    lifecycleState: 'PUBLISHED',
    isReshareDisabledByAuthor: false,
    ...extra,
  };
}

async function uploadImage(token: string, owner: string, bytes = fixture.jpeg()): Promise<string> {
  const init = await json(
    await sendJson(
      sb.url('linkedin', '/rest/images?action=initializeUpload'),
      { initializeUploadRequest: { owner } },
      rest(token),
    ),
  );
  const value = init.value as Json;
  const put = await fetch(String(value.uploadUrl), {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}` },
    body: bytes,
  });
  expect(put.status).toBe(201);
  return String(value.image);
}

const imageStatus = (token: string, urn: string) =>
  fetch(sb.url('linkedin', `/rest/images/${encodeURIComponent(urn)}`), { headers: rest(token) }).then(json);

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  await sb.configure({ processingMs: { linkedin: 30 } });
});

describe('linkedin publishing', () => {
  it('creates a member text post: 201, empty body, URN in x-restli-id, recorded in _state', async () => {
    const { access, person } = await connectLinkedIn(sb);
    const res = await post(access, postBody(person, 'Hello from Herald \\(sandbox\\)'));
    expect(res.status).toBe(201);
    expect(await res.text()).toBe('');
    const urn = res.headers.get('x-restli-id') ?? '';
    expect(urn).toMatch(/^urn:li:share:\d{19}$/);
    const posts = await objects(sb, 'linkedin', 'posts');
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      id: urn,
      author: person,
      text: 'Hello from Herald (sandbox)',
      media: [],
      permalink: sb.url('linkedin', `/feed/update/${urn}/`),
    });
    expect(String(posts[0]?.createdAt)).toMatch(/^2026-11-21T12:00:00/);
    expect((posts[0]?.request as Json).headers).toMatchObject({ 'linkedin-version': VERSION });

    // Reading member posts back needs the closed r_member_social permission.
    const read = await fetch(sb.url('linkedin', `/rest/posts/${encodeURIComponent(urn)}`), { headers: rest(access) });
    expect(read.status).toBe(403);
    expect(await json(read)).toMatchObject({ code: 'ACCESS_DENIED' });
  });

  it('requires the versioning headers and refuses dead tokens', async () => {
    const { access, person } = await connectLinkedIn(sb);
    const noVersion = await post(access, postBody(person, 'x'), {
      authorization: `Bearer ${access}`,
      'x-restli-protocol-version': '2.0.0',
    });
    expect(noVersion.status).toBe(400);
    expect(await json(noVersion)).toMatchObject({ code: 'VERSION_MISSING' });
    expect((await post(access, postBody(person, 'x'), rest(access, { 'linkedin-version': '202301' }))).status).toBe(
      426,
    );
    const noRestli = await post(access, postBody(person, 'x'), {
      authorization: `Bearer ${access}`,
      'linkedin-version': VERSION,
    });
    expect(noRestli.status).toBe(400);
    expect(await json(await post('nope', postBody(person, 'x')))).toMatchObject({
      status: 401,
      serviceErrorCode: 65600,
    });
    sb.advance(5_184_000);
    expect(await json(await post(access, postBody(person, 'x')))).toMatchObject({
      status: 401,
      serviceErrorCode: 65601,
    });
  });

  it('enforces commentary rules: 3000 chars, little-text escaping, required fields', async () => {
    const { access, person } = await connectLinkedIn(sb);
    const long = await post(access, postBody(person, 'a'.repeat(3001)));
    expect(long.status).toBe(400);
    expect(await json(long)).toMatchObject({
      code: 'FIELD_LENGTH_TOO_LONG',
      errorDetails: { inputErrors: [{ input: { inputPath: { fieldPath: '/commentary' } } }] },
    });
    expect((await post(access, postBody(person, 'b'.repeat(3000)))).status).toBe(201);

    // An unescaped reserved character silently drops the rest of the text.
    const mangled = await post(access, postBody(person, 'Launch day (finally) is here'));
    expect(mangled.status).toBe(201);
    const stored = (await objects(sb, 'linkedin', 'posts')).find(
      (p) => String(p.id) === mangled.headers.get('x-restli-id'),
    );
    expect(stored).toMatchObject({ text: 'Launch day', commentaryTruncated: true });

    const rich = await post(access, postBody(person, 'Hi @[Acme](urn:li:organization:123) \\(v2\\) #launch'));
    expect(rich.status).toBe(201);
    const richStored = (await objects(sb, 'linkedin', 'posts')).find(
      (p) => String(p.id) === rich.headers.get('x-restli-id'),
    );
    expect(richStored).toMatchObject({
      commentary: 'Hi @[Acme](urn:li:organization:123) \\(v2\\) {hashtag|\\#|launch}',
      text: 'Hi Acme (v2) #launch',
      commentaryTruncated: false,
    });

    const badMention = await post(access, postBody(person, 'Hi @[Bob](urn:li:company:1)'));
    expect(badMention.status).toBe(400);
    expect(await json(badMention)).toMatchObject({ code: 'INVALID_VALUE_FOR_FIELD' });
    expect(await json(await post(access, { ...postBody(person, 'x'), visibility: undefined }))).toMatchObject({
      code: 'MISSING_FIELD',
    });
    expect(await json(await post(access, postBody(person, 'x', { lifecycleState: 'DRAFT' })))).toMatchObject({
      code: 'INVALID_VALUE_FOR_FIELD',
    });
  });

  it('posts as an administered organization only; refuses other authors', async () => {
    const { access, person, orgs } = await connectLinkedIn(sb);
    const org = orgs[0] ?? '';
    const res = await post(access, postBody(org, 'Org news'));
    expect(res.status).toBe(201);
    const urn = res.headers.get('x-restli-id') ?? '';
    const read = await json(
      await fetch(sb.url('linkedin', `/rest/posts/${encodeURIComponent(urn)}?viewContext=AUTHOR`), {
        headers: rest(access),
      }),
    );
    expect(read).toMatchObject({
      id: urn,
      author: org,
      commentary: 'Org news',
      lifecycleState: 'PUBLISHED',
      visibility: 'PUBLIC',
    });
    const listed = await json(
      await fetch(sb.url('linkedin', `/rest/posts?q=author&author=${encodeURIComponent(org)}`), {
        headers: rest(access),
      }),
    );
    expect(listed.elements).toHaveLength(1);

    expect((await post(access, postBody('urn:li:organization:99999999', 'x'))).status).toBe(403);
    expect((await post(access, postBody('urn:li:person:someoneElse', 'x'))).status).toBe(403);
    expect((await post(access, postBody(person.replace('person', 'company'), 'x'))).status).toBe(400);
    const memberOnly = await connectLinkedIn(sb, 'openid w_member_social');
    expect((await post(memberOnly.access, postBody(org, 'x'))).status).toBe(403);
  });

  it('uploads an image, refuses it until AVAILABLE, then posts it; multi-image needs 2–20', async () => {
    const { access, orgs } = await connectLinkedIn(sb);
    const org = orgs[0] ?? '';
    await sb.configure({ processingMs: { linkedin: 400 } });
    const image = await uploadImage(access, org);
    expect(image).toMatch(/^urn:li:image:/);
    expect(await imageStatus(access, image)).toMatchObject({ status: 'PROCESSING', owner: org });
    const early = await post(access, postBody(org, 'pic', { content: { media: { id: image, altText: 'a cat' } } }));
    expect(early.status).toBe(400);
    // Reported among the input errors, under a generic validation message.
    expect(await json(early)).toMatchObject({
      errorDetails: {
        inputErrors: [{ code: 'MEDIA_ASSET_WAITING_UPLOAD', input: { inputPath: { fieldPath: '/content/media/id' } } }],
      },
    });
    await poll(
      () => imageStatus(access, image),
      (s) => String(s.status) === 'AVAILABLE',
    );
    expect(
      (await post(access, postBody(org, 'pic', { content: { media: { id: image, altText: 'a cat' } } }))).status,
    ).toBe(201);

    await sb.configure({ processingMs: { linkedin: 0 } });
    const second = await uploadImage(access, org, fixture.png());
    const multi = await post(
      access,
      postBody(org, 'two', { content: { multiImage: { images: [{ id: image }, { id: second }] } } }),
    );
    expect(multi.status).toBe(201);
    expect(multi.headers.get('x-restli-id')).toMatch(/^urn:li:ugcPost:/);
    const one = await post(access, postBody(org, 'one', { content: { multiImage: { images: [{ id: image }] } } }));
    expect(await json(one)).toMatchObject({ status: 400, code: 'INVALID_VALUE_FOR_FIELD' });

    const broken = await uploadImage(access, org, fixture.text());
    expect(await imageStatus(access, broken)).toMatchObject({ status: 'PROCESSING_FAILED' });
    expect(await json(await post(access, postBody(org, 'bad', { content: { media: { id: broken } } })))).toMatchObject({
      code: 'MEDIA_ASSET_PROCESSING_FAILED',
    });
    // Media owned by the organization cannot illustrate a member post.
    const { person } = await connectLinkedIn(sb);
    expect((await post(access, postBody(person, 'mine', { content: { media: { id: image } } }))).status).toBe(403);

    const memberOnly = await connectLinkedIn(sb, 'openid w_member_social');
    const own = await uploadImage(memberOnly.access, person);
    expect(
      (await fetch(sb.url('linkedin', `/rest/images/${encodeURIComponent(own)}`), { headers: rest(memberOnly.access) }))
        .status,
    ).toBe(403);
  });

  it('uploads a multi-part video following uploadInstructions, finalizes with ETags, then posts it', async () => {
    const { access, person } = await connectLinkedIn(sb);
    const size = 9 * 1024 * 1024 + 123;
    const file = fixture.mp4(size);
    const init = await json(
      await sendJson(
        sb.url('linkedin', '/rest/videos?action=initializeUpload'),
        {
          initializeUploadRequest: {
            owner: person,
            fileSizeBytes: size,
            uploadCaptions: false,
            uploadThumbnail: false,
          },
        },
        rest(access),
      ),
    );
    const value = init.value as Json;
    const instructions = value.uploadInstructions as unknown as {
      uploadUrl: string;
      firstByte: number;
      lastByte: number;
    }[];
    expect(instructions.map((i) => [i.firstByte, i.lastByte])).toEqual([
      [0, 4194303],
      [4194304, 8388607],
      [8388608, size - 1],
    ]);
    const video = String(value.video);

    const wrong = await fetch(instructions[0]?.uploadUrl ?? '', { method: 'PUT', body: file.subarray(0, 100) });
    expect(wrong.status).toBe(400);
    const etags: string[] = [];
    for (const part of instructions) {
      const res = await fetch(part.uploadUrl, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream' },
        body: file.subarray(part.firstByte, part.lastByte + 1),
      });
      expect(res.status).toBe(200);
      etags.push((res.headers.get('etag') ?? '').replace(/"/g, ''));
    }
    const finalize = (ids: string[]) =>
      sendJson(
        sb.url('linkedin', '/rest/videos?action=finalizeUpload'),
        { finalizeUploadRequest: { video, uploadToken: value.uploadToken, uploadedPartIds: ids } },
        rest(access),
      );
    const reversed = await finalize([...etags].reverse());
    expect(reversed.status).toBe(400);
    expect(await json(reversed)).toMatchObject({ code: 'INVALID_VALUE_FOR_FIELD' });
    expect((await finalize(etags)).status).toBe(200);

    const status = () =>
      fetch(sb.url('linkedin', `/rest/videos/${encodeURIComponent(video)}`), { headers: rest(access) }).then(json);
    expect(['PROCESSING', 'AVAILABLE']).toContain((await status()).status);
    await poll(status, (s) => String(s.status) === 'AVAILABLE');
    const res = await post(
      access,
      postBody(person, 'Watch this', { content: { media: { id: video, title: 'Demo' } } }),
    );
    expect(res.status).toBe(201);
    expect(res.headers.get('x-restli-id')).toMatch(/^urn:li:ugcPost:/);
    expect((await objects(sb, 'linkedin', 'media')).find((m) => String(m.id) === video)).toMatchObject({
      kind: 'video',
      status: 'AVAILABLE',
      fileSizeBytes: size,
    });
  });

  it('answers a re-post of the same content with 422 duplicate, and deletes posts', async () => {
    const { access, person } = await connectLinkedIn(sb);
    const first = await post(access, postBody(person, 'Only once'));
    const urn = first.headers.get('x-restli-id') ?? '';
    const again = await post(access, postBody(person, 'Only once'));
    expect(again.status).toBe(422);
    expect(await json(again)).toMatchObject({
      errorDetails: { inputErrors: [{ code: 'DUPLICATE_POST' }] },
      message: `com.linkedin.content.common.exception.BadRequestResponseException: Content is a duplicate of ${urn}`,
    });
    expect(await objects(sb, 'linkedin', 'posts')).toHaveLength(1);
    sb.advance(601);
    expect((await post(access, postBody(person, 'Only once'))).status).toBe(201);

    const del = await fetch(sb.url('linkedin', `/rest/posts/${encodeURIComponent(urn)}`), {
      method: 'DELETE',
      headers: rest(access),
    });
    expect(del.status).toBe(204);
    expect(
      (
        await fetch(sb.url('linkedin', `/rest/posts/${encodeURIComponent(urn)}`), {
          method: 'DELETE',
          headers: rest(access),
        })
      ).status,
    ).toBe(404);
  });

  it('injects faults on publish, upload and status', async () => {
    const { access, person } = await connectLinkedIn(sb);
    await sb.fault({ platform: 'linkedin', operation: 'publish', fault: 'rate_limit' });
    const limited = await post(access, postBody(person, 'x'));
    expect(limited.status).toBe(429);
    expect(await json(limited)).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(await objects(sb, 'linkedin', 'posts')).toHaveLength(0);

    await sb.fault({ platform: 'linkedin', operation: 'upload', fault: 'server_error' });
    expect(
      (
        await sendJson(
          sb.url('linkedin', '/rest/images?action=initializeUpload'),
          { initializeUploadRequest: { owner: person } },
          rest(access),
        )
      ).status,
    ).toBe(500);
    const image = await uploadImage(access, person);
    await sb.fault({ platform: 'linkedin', operation: 'status', fault: 'server_error' });
    expect(
      (await fetch(sb.url('linkedin', `/rest/images/${encodeURIComponent(image)}`), { headers: rest(access) })).status,
    ).toBe(500);
    await sb.fault({ platform: 'linkedin', operation: 'publish', fault: 'expire_token' });
    expect(await json(await post(access, postBody(person, 'y')))).toMatchObject({ serviceErrorCode: 65601 });
  });
});

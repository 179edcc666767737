import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json } from './helpers.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { Json } from './helpers.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';
import { connectPinterest, fixture, objects, sendJson } from './publish-helpers.ts';
import { poll } from '../helpers/poll.ts';

let sb: TestSandbox;
let token = '';
let board = '';

const auth = (t = token) => ({ authorization: `Bearer ${t}` });
const pin = (body: Record<string, unknown>, t = token) => sendJson(sb.url('pinterest', '/v5/pins'), body, auth(t));
const imagePin = (extra: Record<string, unknown> = {}) =>
  pin({
    board_id: board,
    title: 'Sourdough',
    description: 'Crumb shot',
    media_source: { source_type: 'image_url', url: 'https://cdn.example.com/bread.jpg' },
    ...extra,
  });

async function registerVideo(): Promise<{ mediaId: string; url: string; params: Record<string, string> }> {
  const res = await sendJson(sb.url('pinterest', '/v5/media'), { media_type: 'video' }, auth());
  expect(res.status).toBe(201);
  const body = await json(res);
  return {
    mediaId: String(body.media_id),
    url: String(body.upload_url),
    params: body.upload_parameters as unknown as Record<string, string>,
  };
}

function s3Form(params: Record<string, string>, file: Buffer, fileFirst = false): FormData {
  const form = new FormData();
  const blob = new Blob([new Uint8Array(file)], { type: 'video/mp4' });
  if (fileFirst) form.append('file', blob, 'v.mp4');
  for (const [k, v] of Object.entries(params)) form.append(k, v);
  if (!fileFirst) form.append('file', blob, 'v.mp4');
  return form;
}

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  await sb.configure({ processingMs: { pinterest: 40 } });
  const connected = await connectPinterest(sb);
  token = connected.access;
  board = connected.boards[0] ?? '';
});

describe('pinterest publishing', () => {
  it('creates an image pin on one of the user boards and reads it back', async () => {
    const res = await imagePin({ link: 'https://bakery.example/recipe', alt_text: 'A loaf' });
    expect(res.status).toBe(201);
    const created = await json(res);
    expect(String(created.id)).toMatch(/^\d{18}$/);
    expect(created).toMatchObject({
      board_id: board,
      title: 'Sourdough',
      creative_type: 'REGULAR',
      media: { media_type: 'image' },
      is_owner: true,
    });
    const read = await json(
      await fetch(sb.url('pinterest', `/v5/pins/${String(created.id)}?pin_metrics=true`), { headers: auth() }),
    );
    expect(read).toMatchObject({
      id: created.id,
      link: 'https://bakery.example/recipe',
      pin_metrics: { lifetime_metrics: { impression: 0 } },
    });
    const posts = await objects(sb, 'pinterest', 'posts');
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      id: created.id,
      text: 'Crumb shot',
      media: ['https://cdn.example.com/bread.jpg'],
      permalink: sb.url('pinterest', `/pin/${String(created.id)}/`),
    });
    const boards = await json(await fetch(sb.url('pinterest', '/v5/boards'), { headers: auth() }));
    expect((boards.items as unknown as Json[]).find((b) => String(b.id) === board)).toMatchObject({ pin_count: 1 });
  });

  it('refuses invalid, unknown and foreign boards', async () => {
    expect(await json(await imagePin({ board_id: 'recipes' }))).toMatchObject({ code: 1 });
    const unknown = await imagePin({ board_id: '123456789012345678' });
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toEqual({ code: 40, message: 'Board not found.' });
    expect(
      (
        await pin({
          title: 'no board',
          media_source: { source_type: 'image_url', url: 'https://cdn.example.com/a.jpg' },
        })
      ).status,
    ).toBe(400);
    const other = await connectPinterest(sb, undefined, 'bob');
    const foreign = await imagePin({ board_id: other.boards[0] });
    expect(foreign.status).toBe(403);
    expect(await json(foreign)).toMatchObject({ code: 7 });
    const readOnly = await connectPinterest(sb, 'boards:read,pins:read');
    const denied = await pin(
      { board_id: board, media_source: { source_type: 'image_url', url: 'https://cdn.example.com/a.jpg' } },
      readOnly.access,
    );
    expect(denied.status).toBe(403);
    expect(await json(denied)).toMatchObject({ code: 3 });
  });

  it('enforces field limits and media_source rules', async () => {
    expect((await imagePin({ title: 't'.repeat(101) })).status).toBe(400);
    expect((await imagePin({ description: 'd'.repeat(801) })).status).toBe(400);
    expect((await imagePin({ description: 'd'.repeat(800) })).status).toBe(201);
    expect((await imagePin({ alt_text: 'a'.repeat(501) })).status).toBe(400);
    expect((await imagePin({ link: 'not a url' })).status).toBe(400);
    expect(
      (await imagePin({ media_source: { source_type: 'image_url', url: 'https://cdn.invalid/a.jpg' } })).status,
    ).toBe(400);
    expect(
      (await imagePin({ media_source: { source_type: 'image_url', url: 'https://cdn.example.com/a.mp4' } })).status,
    ).toBe(400);
    expect((await imagePin({ media_source: undefined })).status).toBe(400);

    const b64 = fixture.png().toString('base64');
    expect(
      (await imagePin({ media_source: { source_type: 'image_base64', content_type: 'image/png', data: b64 } })).status,
    ).toBe(201);
    expect(
      (await imagePin({ media_source: { source_type: 'image_base64', content_type: 'image/gif', data: b64 } })).status,
    ).toBe(400);
    expect(
      (await imagePin({ media_source: { source_type: 'image_base64', content_type: 'image/jpeg', data: b64 } })).status,
    ).toBe(400);
    expect(
      (
        await imagePin({
          media_source: {
            source_type: 'image_base64',
            content_type: 'image/png',
            data: `data:image/png;base64,${b64}`,
          },
        })
      ).status,
    ).toBe(400);

    const urls = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ url: `https://cdn.example.com/${i}.jpg`, title: `Slide ${i}` }));
    const carousel = await imagePin({ media_source: { source_type: 'multiple_image_urls', items: urls(5) } });
    expect(carousel.status).toBe(201);
    expect(await json(carousel)).toMatchObject({ creative_type: 'CAROUSEL', media: { media_type: 'multiple_images' } });
    expect((await imagePin({ media_source: { source_type: 'multiple_image_urls', items: urls(1) } })).status).toBe(400);
    expect((await imagePin({ media_source: { source_type: 'multiple_image_urls', items: urls(6) } })).status).toBe(400);
    expect(await objects(sb, 'pinterest', 'posts')).toHaveLength(3);
  });

  it('uploads a video through /v5/media and the S3 form, then pins it with a cover', async () => {
    const { mediaId, url, params } = await registerVideo();
    expect(params).toMatchObject({ 'x-amz-algorithm': 'AWS4-HMAC-SHA256', 'Content-Type': 'multipart/form-data' });
    const media = () => fetch(sb.url('pinterest', `/v5/media/${mediaId}`), { headers: auth() }).then(json);
    expect(await media()).toEqual({ media_id: mediaId, media_type: 'video', status: 'registered' });
    const early = await pin({
      board_id: board,
      media_source: { source_type: 'video_id', media_id: mediaId, cover_image_url: 'https://cdn.example.com/c.jpg' },
    });
    expect(early.status).toBe(400);

    const fileFirst = await fetch(url, { method: 'POST', body: s3Form(params, fixture.mp4(), true) });
    expect(fileFirst.status).toBe(400);
    expect(await fileFirst.text()).toContain('<Code>InvalidArgument</Code>');
    const forged = await fetch(url, {
      method: 'POST',
      body: s3Form({ ...params, 'x-amz-signature': 'deadbeef' }, fixture.mp4()),
    });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
    const uploaded = await fetch(url, { method: 'POST', body: s3Form(params, fixture.mp4()) });
    expect(uploaded.status).toBe(204);
    await poll(media, (m) => String(m.status) === 'succeeded');

    const noCover = await pin({ board_id: board, media_source: { source_type: 'video_id', media_id: mediaId } });
    expect(noCover.status).toBe(400);
    expect(String((await json(noCover)).message)).toContain('cover_image_url or cover_image_content_type');
    const video = await pin({
      board_id: board,
      title: 'Clip',
      media_source: { source_type: 'video_id', media_id: mediaId, cover_image_url: 'https://cdn.example.com/c.jpg' },
    });
    expect(video.status).toBe(201);
    expect(await json(video)).toMatchObject({
      creative_type: 'VIDEO',
      media: { media_type: 'video', cover_image_url: 'https://cdn.example.com/c.jpg' },
    });

    await sb.configure({ processingMs: { pinterest: 0 } });
    const bad = await registerVideo();
    await fetch(bad.url, { method: 'POST', body: s3Form(bad.params, fixture.text()) });
    expect(await fetch(sb.url('pinterest', `/v5/media/${bad.mediaId}`), { headers: auth() }).then(json)).toMatchObject({
      status: 'failed',
    });
  });

  it('deletes pins and injects faults on publish, upload and status', async () => {
    const { id } = await json(await imagePin());
    expect(
      (await fetch(sb.url('pinterest', `/v5/pins/${String(id)}`), { method: 'DELETE', headers: auth() })).status,
    ).toBe(204);
    expect(await json(await fetch(sb.url('pinterest', `/v5/pins/${String(id)}`), { headers: auth() }))).toEqual({
      code: 50,
      message: 'Pin not found.',
    });

    await sb.fault({ platform: 'pinterest', operation: 'publish', fault: 'rate_limit' });
    const limited = await imagePin();
    expect(limited.status).toBe(429);
    expect(await json(limited)).toMatchObject({ code: 8 });
    const { mediaId, url, params } = await registerVideo();
    await sb.fault({ platform: 'pinterest', operation: 'upload', fault: 'rate_limit' });
    const slow = await fetch(url, { method: 'POST', body: s3Form(params, fixture.mp4()) });
    expect(slow.status).toBe(503);
    expect(await slow.text()).toContain('<Code>SlowDown</Code>');
    await sb.fault({ platform: 'pinterest', operation: 'status', fault: 'server_error' });
    expect((await fetch(sb.url('pinterest', `/v5/media/${mediaId}`), { headers: auth() })).status).toBe(500);
  });
});

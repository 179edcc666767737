import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, postForm, withQuery } from './helpers.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { Json } from './helpers.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';
import { connectThreads, objects } from './publish-helpers.ts';
import { poll } from '../helpers/poll.ts';

let sb: TestSandbox;
let token = '';
let userId = '';

const api = (path: string) => sb.url('threads', `/v1.0${path}`);
const create = (params: Record<string, string>) =>
  postForm(api(`/${userId}/threads`), { access_token: token, ...params }).then(json);
const publish = (id: string) =>
  postForm(`${api(`/${userId}/threads_publish`)}?creation_id=${id}`, { access_token: token }).then(json);
const read = (id: string, fields: string) =>
  fetch(withQuery(api(`/${id}`), { fields, access_token: token })).then(json);
const settled = (id: string) =>
  poll(
    () => read(id, 'status,error_message'),
    (s) => String(s.status) !== 'IN_PROGRESS',
  );

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  await sb.configure({ processingMs: { threads: 40 } });
  ({ token, userId } = await connectThreads(sb));
});

describe('threads publishing', () => {
  it('publishes a TEXT container; the permalink uses the username and a shortcode', async () => {
    const container = await create({ media_type: 'TEXT', text: 'Hello Threads' });
    expect(await read(String(container.id), 'status')).toEqual({ status: 'FINISHED', id: container.id });
    const { id } = await publish(String(container.id));
    const post = await read(String(id), 'id,permalink,shortcode,text,media_type,username');
    expect(post).toMatchObject({ text: 'Hello Threads', media_type: 'TEXT_POST', username: 'sandbox_user' });
    expect(post.permalink).toBe(sb.url('threads', `/@sandbox_user/post/${String(post.shortcode)}`));
    expect(await publish(String(container.id))).toMatchObject({ error: { code: 100 } });
    const posts = await objects(sb, 'threads', 'posts');
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ id, author: userId, text: 'Hello Threads', media: [], permalink: post.permalink });
  });

  it('counts 500 characters with emoji charged by their UTF-8 bytes, and allows 5 links', async () => {
    expect((await create({ media_type: 'TEXT', text: 'a'.repeat(500) })).id).toBeDefined();
    expect(await create({ media_type: 'TEXT', text: 'a'.repeat(501) })).toMatchObject({
      error: { code: 100, type: 'THApiException' },
    });
    expect((await create({ media_type: 'TEXT', text: '🙂'.repeat(125) })).id).toBeDefined();
    expect(await create({ media_type: 'TEXT', text: '🙂'.repeat(126) })).toMatchObject({ error: { code: 100 } });
    const links = (n: number) => Array.from({ length: n }, (_, i) => `https://site${i}.example`).join(' ');
    expect((await create({ media_type: 'TEXT', text: links(5) })).id).toBeDefined();
    expect(await create({ media_type: 'TEXT', text: links(6) })).toMatchObject({
      error: { message: 'THREADS_API__LINK_LIMIT_EXCEEDED' },
    });
    expect(await create({ text: 'no type' })).toMatchObject({ error: { code: 100 } });
    expect(await create({ media_type: 'POLL', text: 'x' })).toMatchObject({ error: { code: 100 } });
  });

  it('refuses to publish an IMAGE container before it is FINISHED; bad media ends in ERROR', async () => {
    await sb.lenient('public_media_only'); // media on made-up hosts (cdn.example.com), judged by their names
    await sb.configure({ processingMs: { threads: 300 } });
    const image = await create({ media_type: 'IMAGE', image_url: 'https://cdn.example.com/pic.png', text: 'pic' });
    expect(await read(String(image.id), 'status')).toMatchObject({ status: 'IN_PROGRESS' });
    expect(await publish(String(image.id))).toMatchObject({
      error: { code: 24, error_subcode: 4279009, type: 'THApiException' },
    });
    await settled(String(image.id));
    expect((await publish(String(image.id))).id).toBeDefined();

    await sb.configure({ processingMs: { threads: 0 } });
    const gif = await create({ media_type: 'IMAGE', image_url: 'https://cdn.example.com/anim.gif' });
    expect(await read(String(gif.id), 'status,error_message')).toMatchObject({
      status: 'ERROR',
      error_message: 'UNKNOWN',
    });
    const video = await create({ media_type: 'VIDEO', video_url: 'https://cdn.example.com/corrupt.mov' });
    expect(await read(String(video.id), 'status,error_message')).toMatchObject({
      status: 'ERROR',
      error_message: 'FAILED_PROCESSING_VIDEO',
    });
    const lost = await create({ media_type: 'VIDEO', video_url: 'https://cdn.invalid/v.mp4' });
    expect(await read(String(lost.id), 'status,error_message')).toMatchObject({
      error_message: 'FAILED_DOWNLOADING_VIDEO',
    });
    expect(await publish(String(video.id))).toMatchObject({ error: { code: 100 } });
    expect(await create({ media_type: 'IMAGE', image_url: 'https://cdn.invalid/a.jpg' })).toMatchObject({
      error: { code: 100 },
    });
  });

  it('publishes a carousel of finished children as one post', async () => {
    await sb.lenient('public_media_only'); // media on made-up hosts (cdn.example.com), judged by their names
    await sb.configure({ processingMs: { threads: 0 } });
    const a = await create({
      media_type: 'IMAGE',
      image_url: 'https://cdn.example.com/1.jpg',
      is_carousel_item: 'true',
    });
    const b = await create({
      media_type: 'VIDEO',
      video_url: 'https://cdn.example.com/2.mp4',
      is_carousel_item: 'true',
    });
    expect(await create({ media_type: 'CAROUSEL', children: String(a.id) })).toMatchObject({ error: { code: 100 } });
    const album = await create({ media_type: 'CAROUSEL', children: `${String(a.id)},${String(b.id)}`, text: 'Album' });
    const { id } = await publish(String(album.id));
    const post = await read(String(id), 'media_type,children{id,media_type}');
    expect(post.media_type).toBe('CAROUSEL_ALBUM');
    expect(((post.children as Json).data as unknown as Json[]).map((c) => c.media_type)).toEqual(['IMAGE', 'VIDEO']);
    expect((await objects(sb, 'threads', 'posts'))[0]?.media).toEqual([
      'https://cdn.example.com/1.jpg',
      'https://cdn.example.com/2.mp4',
    ]);
  });

  it('auto-publishes text, replies, reports quota usage, lists and deletes posts', async () => {
    const root = await create({ media_type: 'TEXT', text: 'root', auto_publish_text: 'true' });
    const posts = await objects(sb, 'threads', 'posts');
    expect(posts.map((p) => p.id)).toEqual([root.id]);
    const reply = await create({ media_type: 'TEXT', text: 'reply', reply_to_id: String(root.id) });
    await publish(String(reply.id));
    expect(await create({ media_type: 'TEXT', text: 'x', reply_to_id: '123' })).toMatchObject({ error: { code: 100 } });
    const limit = await json(
      await fetch(
        withQuery(api(`/${userId}/threads_publishing_limit`), {
          fields: 'quota_usage,config,reply_quota_usage,reply_config',
          access_token: token,
        }),
      ),
    );
    expect(limit).toEqual({
      data: [
        {
          quota_usage: 1,
          config: { quota_total: 250, quota_duration: 86400 },
          reply_quota_usage: 1,
          reply_config: { quota_total: 1000, quota_duration: 86400 },
        },
      ],
    });
    const listed = await json(
      await fetch(withQuery(api(`/${userId}/threads`), { fields: 'id,text,is_reply', access_token: token })),
    );
    expect(listed.data).toHaveLength(2);

    await sb.configure({ publishLimits: { threads: 1 } });
    const blocked = await create({ media_type: 'TEXT', text: 'over' });
    expect(await publish(String(blocked.id))).toMatchObject({ error: { code: 9 } });

    const del = await json(
      await fetch(withQuery(api(`/${String(root.id)}`), { access_token: token }), { method: 'DELETE' }),
    );
    expect(del).toEqual({ success: true, deleted_id: root.id });
    expect(await objects(sb, 'threads', 'posts')).toHaveLength(1);
  });

  it('injects faults on upload, status and publish', async () => {
    await sb.fault({ platform: 'threads', operation: 'upload', fault: 'server_error' });
    expect(await create({ media_type: 'TEXT', text: 'x' })).toMatchObject({ error: { code: 2 } });
    const c = await create({ media_type: 'TEXT', text: 'x' });
    await sb.fault({ platform: 'threads', operation: 'status', fault: 'rate_limit' });
    expect(await read(String(c.id), 'status')).toMatchObject({ error: { code: 4 } });
    await sb.fault({ platform: 'threads', operation: 'publish', fault: 'revoke' });
    expect(await publish(String(c.id))).toMatchObject({ error: { code: 190, error_subcode: 458 } });
    expect(await objects(sb, 'threads', 'posts')).toHaveLength(0);
  });
});

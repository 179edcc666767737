import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, postForm, withQuery } from './helpers.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { Json } from './helpers.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';
import { connectInstagram, objects } from './publish-helpers.ts';
import { poll } from '../helpers/poll.ts';

let sb: TestSandbox;
const V = 'v21.0';
let token = '';
let igUserId = '';

const graph = (path: string) => sb.url('instagram', `/${V}${path}`);
const create = (params: Record<string, string>) =>
  postForm(graph(`/${igUserId}/media`), { access_token: token, ...params }).then(json);
const publish = (creationId: string) =>
  postForm(`${graph(`/${igUserId}/media_publish`)}?creation_id=${creationId}`, { access_token: token }).then(json);
const read = (id: string, fields: string) =>
  fetch(withQuery(graph(`/${id}`), { fields, access_token: token })).then(json);
const statusOf = (id: string) => read(id, 'status_code,status');
const finished = (id: string) =>
  poll(
    () => statusOf(id),
    (s) => String(s.status_code) !== 'IN_PROGRESS',
  );

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  await sb.configure({ processingMs: { instagram: 40 } });
  ({ token, igUserId } = await connectInstagram(sb));
});

describe('instagram publishing (Instagram Login)', () => {
  it('publishes an image container once FINISHED; the permalink uses a shortcode', async () => {
    await sb.lenient('public_media_only'); // media on made-up hosts (cdn.example.com), judged by their names
    await sb.configure({ processingMs: { instagram: 300 } });
    const { id } = await create({ image_url: 'https://cdn.example.com/photo.jpg', caption: 'Fresh bread #bakery' });
    expect(String(id)).toMatch(/^1[78]\d{16}$/);
    expect(await statusOf(String(id))).toMatchObject({ status_code: 'IN_PROGRESS', id });
    expect(await publish(String(id))).toMatchObject({
      error: { code: 9007, error_subcode: 2207027, error_user_title: 'Media ID is not available' },
    });
    expect(await finished(String(id))).toMatchObject({ status_code: 'FINISHED' });

    const media = await publish(String(id));
    const mediaId = String(media.id);
    expect(mediaId).not.toBe(String(id));
    const info = await read(mediaId, 'id,permalink,shortcode,caption,media_type,media_product_type,username');
    expect(String(info.shortcode)).toMatch(/^[A-Za-z0-9_-]{11}$/);
    expect(info).toMatchObject({
      permalink: sb.url('instagram', `/p/${String(info.shortcode)}/`),
      caption: 'Fresh bread #bakery',
      media_type: 'IMAGE',
      media_product_type: 'FEED',
    });
    expect(String(info.permalink)).not.toContain(mediaId);

    expect(await statusOf(String(id))).toMatchObject({ status_code: 'PUBLISHED' });
    expect(await publish(String(id))).toMatchObject({ error: { code: 100 } });
    const posts = await objects(sb, 'instagram', 'posts');
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      id: mediaId,
      author: igUserId,
      text: 'Fresh bread #bakery',
      media: ['https://cdn.example.com/photo.jpg'],
      shortcode: info.shortcode,
    });
  });

  it('refuses non-JPEG images, long captions, too many hashtags and tags, unreachable URLs and bad media types', async () => {
    await sb.lenient('public_media_only'); // media on made-up hosts (cdn.example.com), judged by their names
    expect(await create({ image_url: 'https://cdn.example.com/photo.png' })).toMatchObject({
      error: { code: 36001, error_subcode: 2207005 },
    });
    expect(await create({ image_url: 'https://cdn.example.com/a.jpg', caption: 'x'.repeat(2201) })).toMatchObject({
      error: { code: 36004, error_subcode: 2207010 },
    });
    expect((await create({ image_url: 'https://cdn.example.com/a.jpg', caption: 'x'.repeat(2200) })).id).toBeDefined();
    const tags = Array.from({ length: 31 }, (_, i) => `#t${i}`).join(' ');
    expect(await create({ image_url: 'https://cdn.example.com/a.jpg', caption: tags })).toMatchObject({
      error: { error_subcode: 2207010 },
    });
    const mentions = Array.from({ length: 21 }, (_, i) => `@user${i}`).join(' ');
    expect(await create({ image_url: 'https://cdn.example.com/a.jpg', caption: mentions })).toMatchObject({
      error: { code: 100, error_subcode: 2207040 },
    });
    expect(await create({ image_url: 'https://cdn.invalid/a.jpg' })).toMatchObject({
      error: { code: 9004, error_subcode: 2207052 },
    });
    expect(await create({ media_type: 'VIDEO', video_url: 'https://cdn.example.com/v.mp4' })).toMatchObject({
      error: { code: 100, error_subcode: 2207023 },
    });
    expect(await create({ caption: 'no media' })).toMatchObject({ error: { code: 100 } });
    const other = await json(
      await postForm(graph('/17841400000000000/media'), {
        access_token: token,
        image_url: 'https://cdn.example.com/a.jpg',
      }),
    );
    expect(other).toMatchObject({ error: { code: 100, error_subcode: 33 } });
    const readOnly = await connectInstagram(sb, 'instagram_business_basic');
    const denied = await json(
      await postForm(graph(`/${igUserId}/media`), {
        access_token: readOnly.token,
        image_url: 'https://cdn.example.com/a.jpg',
      }),
    );
    expect(denied).toMatchObject({ error: { code: 10 } });
  });

  it('publishes a Reel; a corrupt video ends in ERROR and cannot be published', async () => {
    await sb.lenient('public_media_only'); // media on made-up hosts (cdn.example.com), judged by their names
    const reel = await create({
      media_type: 'REELS',
      video_url: 'https://cdn.example.com/clip.mp4',
      caption: 'Reel',
      share_to_feed: 'true',
    });
    await finished(String(reel.id));
    const media = await publish(String(reel.id));
    const info = await read(String(media.id), 'permalink,shortcode,media_type,media_product_type');
    expect(info).toMatchObject({
      permalink: sb.url('instagram', `/reel/${String(info.shortcode)}/`),
      media_type: 'VIDEO',
      media_product_type: 'REELS',
    });

    const bad = await create({ media_type: 'REELS', video_url: 'https://cdn.example.com/corrupt.mp4' });
    expect(await finished(String(bad.id))).toMatchObject({
      status_code: 'ERROR',
      status: 'Error: Media upload has failed with error code 2207026',
    });
    expect(await publish(String(bad.id))).toMatchObject({ error: { error_subcode: 2207032 } });
  });

  it('builds a carousel from finished children only and publishes it as one post', async () => {
    await sb.lenient('public_media_only'); // media on made-up hosts (cdn.example.com), judged by their names
    await sb.configure({ processingMs: { instagram: 300 } });
    const a = await create({ image_url: 'https://cdn.example.com/1.jpg', is_carousel_item: 'true' });
    const b = await create({
      media_type: 'VIDEO',
      video_url: 'https://cdn.example.com/2.mp4',
      is_carousel_item: 'true',
    });
    const early = await create({
      media_type: 'CAROUSEL',
      children: `${String(a.id)},${String(b.id)}`,
      caption: 'Album',
    });
    expect(early).toMatchObject({ error: { code: 9007, error_subcode: 2207027 } });
    await finished(String(a.id));
    await finished(String(b.id));
    expect(await create({ media_type: 'CAROUSEL', children: String(a.id) })).toMatchObject({
      error: { error_subcode: 2207028 },
    });
    expect(await publish(String(a.id))).toMatchObject({ error: { code: 100 } });

    await sb.configure({ processingMs: { instagram: 0 } });
    const album = await create({
      media_type: 'CAROUSEL',
      children: `${String(a.id)},${String(b.id)}`,
      caption: 'Album',
    });
    expect(await statusOf(String(album.id))).toMatchObject({ status_code: 'FINISHED' });
    const media = await publish(String(album.id));
    const info = await read(String(media.id), 'media_type,permalink,children{id,media_type}');
    expect(info.media_type).toBe('CAROUSEL_ALBUM');
    expect(((info.children as Json).data as unknown as Json[]).map((c) => c.media_type)).toEqual(['IMAGE', 'VIDEO']);
    const posts = await objects(sb, 'instagram', 'posts');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.media).toEqual(['https://cdn.example.com/1.jpg', 'https://cdn.example.com/2.mp4']);
  });

  it('enforces the publishing quota and expires containers after 24 hours', async () => {
    await sb.lenient('public_media_only'); // media on made-up hosts (cdn.example.com), judged by their names
    await sb.configure({ processingMs: { instagram: 0 }, publishLimits: { instagram: 2 } });
    for (let i = 0; i < 2; i++)
      expect(
        (await publish(String((await create({ image_url: `https://cdn.example.com/${i}.jpg` })).id))).id,
      ).toBeDefined();
    const third = await create({ image_url: 'https://cdn.example.com/3.jpg' });
    expect(await publish(String(third.id))).toMatchObject({ error: { code: 9, error_subcode: 2207042 } });
    const limit = await json(
      await fetch(
        withQuery(graph(`/${igUserId}/content_publishing_limit`), {
          fields: 'quota_usage,config',
          access_token: token,
        }),
      ),
    );
    expect(limit).toEqual({ data: [{ quota_usage: 2, config: { quota_total: 2, quota_duration: 86400 } }] });

    sb.advance(86_400);
    expect(await statusOf(String(third.id))).toMatchObject({ status_code: 'EXPIRED' });
    expect(await publish(String(third.id))).toMatchObject({ error: { code: -2, error_subcode: 2207020 } });
    const fresh = await create({ image_url: 'https://cdn.example.com/4.jpg' });
    expect((await publish(String(fresh.id))).id).toBeDefined();
    const listed = await json(
      await fetch(withQuery(graph(`/${igUserId}/media`), { fields: 'id,permalink', access_token: token })),
    );
    expect(listed.data).toHaveLength(3);
  });

  it('injects faults on upload (containers), status and publish', async () => {
    await sb.lenient('public_media_only'); // media on made-up hosts (cdn.example.com), judged by their names
    await sb.configure({ processingMs: { instagram: 0 } });
    await sb.fault({ platform: 'instagram', operation: 'upload', fault: 'server_error' });
    expect(await create({ image_url: 'https://cdn.example.com/a.jpg' })).toMatchObject({
      error: { code: 2, is_transient: true },
    });
    const { id } = await create({ image_url: 'https://cdn.example.com/a.jpg' });
    await sb.fault({ platform: 'instagram', operation: 'status', fault: 'rate_limit' });
    expect(await statusOf(String(id))).toMatchObject({ error: { code: 4 } });
    await sb.fault({ platform: 'instagram', operation: 'publish', fault: 'expire_token' });
    expect(await publish(String(id))).toMatchObject({ error: { code: 190, error_subcode: 463 } });
    expect(await objects(sb, 'instagram', 'posts')).toHaveLength(0);
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, postForm } from './helpers.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { Json } from './helpers.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';
import { connectFacebook, fixture, objects, sendJson } from './publish-helpers.ts';
import { poll } from '../helpers/poll.ts';

let sb: TestSandbox;
const V = 'v21.0';
const graph = (path: string) => sb.url('facebook', `/${V}${path}`);

function multipart(fields: Record<string, string>, file?: { name: string; bytes: Buffer; type: string }): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append(file.name, new Blob([new Uint8Array(file.bytes)], { type: file.type }), 'upload.bin');
  return form;
}

async function page() {
  const fb = await connectFacebook(sb);
  const first = fb.pages[0];
  if (!first) throw new Error('no page');
  return { ...fb, pageId: first.id, pageToken: first.token, otherToken: fb.pages[1]?.token ?? '' };
}

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  await sb.configure({ processingMs: { facebook: 30 } });
});

describe('facebook pages publishing', () => {
  it('posts to /{page-id}/feed with the page token only', async () => {
    const { pageId, pageToken, otherToken, user } = await page();
    const res = await postForm(`${graph(`/${pageId}/feed`)}?fields=id,permalink_url`, {
      message: 'Hello Page',
      access_token: pageToken,
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(String(body.id)).toMatch(new RegExp(`^${pageId}_\\d{16}$`));
    expect(String(body.permalink_url)).toContain(sb.url('facebook', `/${pageId}/posts/`));

    const asUser = await postForm(graph(`/${pageId}/feed`), { message: 'x', access_token: user });
    expect(asUser.status).toBe(403);
    expect(await json(asUser)).toMatchObject({ error: { code: 200, type: 'OAuthException' } });
    expect((await postForm(graph(`/${pageId}/feed`), { message: 'x', access_token: otherToken })).status).toBe(403);
    expect(await json(await postForm(graph(`/${pageId}/feed`), { access_token: pageToken }))).toMatchObject({
      error: { code: 100 },
    });
    expect(await json(await postForm(graph('/123/feed'), { message: 'x', access_token: pageToken }))).toMatchObject({
      error: { code: 100, error_subcode: 33 },
    });
    expect(
      await json(await postForm(sb.url('facebook', `/${pageId}/feed`), { message: 'x', access_token: pageToken })),
    ).toMatchObject({ error: { code: 2500 } });

    const read = await json(
      await fetch(
        `${graph(`/${String(body.id)}`)}?fields=id,message,permalink_url,created_time,from&access_token=${pageToken}`,
      ),
    );
    expect(read).toMatchObject({
      id: body.id,
      message: 'Hello Page',
      permalink_url: body.permalink_url,
      created_time: '2026-11-21T12:00:00+0000',
      from: { id: pageId },
    });
    const posts = await objects(sb, 'facebook', 'posts');
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ id: body.id, author: pageId, text: 'Hello Page', media: [] });

    const fewScopes = await connectFacebook(sb, 'pages_show_list,pages_manage_posts');
    expect(
      (await postForm(graph(`/${pageId}/feed`), { message: 'x', access_token: fewScopes.pages[0]?.token ?? '' }))
        .status,
    ).toBe(403);
  });

  it('publishes photos by url or multipart source, refusing other formats, >4 MB and unreachable urls', async () => {
    await sb.lenient('public_media_only'); // media on made-up hosts (cdn.example.com), judged by their names
    const { pageId, pageToken } = await page();
    const byUrl = await json(
      await postForm(graph(`/${pageId}/photos`), {
        url: 'https://cdn.example.com/cat.jpg',
        caption: 'Cat',
        access_token: pageToken,
      }),
    );
    expect(byUrl).toMatchObject({ post_id: `${pageId}_${String(byUrl.id)}` });
    const upload = await fetch(graph(`/${pageId}/photos`), {
      method: 'POST',
      body: multipart(
        { access_token: pageToken, message: 'Dog' },
        { name: 'source', bytes: fixture.png(), type: 'image/png' },
      ),
    });
    expect(upload.status).toBe(200);
    expect(await json(upload)).toHaveProperty('post_id');

    const webp = await json(
      await postForm(graph(`/${pageId}/photos`), { url: 'https://cdn.example.com/cat.webp', access_token: pageToken }),
    );
    expect(webp).toMatchObject({ error: { error_subcode: 1366046 } });
    const big = await fetch(graph(`/${pageId}/photos`), {
      method: 'POST',
      body: multipart(
        { access_token: pageToken },
        { name: 'source', bytes: fixture.jpeg(4 * 1024 * 1024 + 1), type: 'image/jpeg' },
      ),
    });
    expect(await json(big)).toMatchObject({ error: { error_subcode: 1366046 } });
    expect(
      await json(
        await postForm(graph(`/${pageId}/photos`), { url: 'https://gone.invalid/a.jpg', access_token: pageToken }),
      ),
    ).toMatchObject({ error: { code: 324 } });
    expect(await json(await postForm(graph(`/${pageId}/photos`), { access_token: pageToken }))).toMatchObject({
      error: { code: 324 },
    });
    expect(await objects(sb, 'facebook', 'posts')).toHaveLength(2);
  });

  it('builds a multi-photo post from unpublished photos with attached_media', async () => {
    await sb.lenient('public_media_only'); // media on made-up hosts (cdn.example.com), judged by their names
    const { pageId, pageToken } = await page();
    const ids: string[] = [];
    for (const name of ['a.jpg', 'b.jpg', 'c.jpg']) {
      const res = await json(
        await postForm(graph(`/${pageId}/photos`), {
          url: `https://cdn.example.com/${name}`,
          published: 'false',
          access_token: pageToken,
        }),
      );
      expect(res.post_id).toBeUndefined();
      ids.push(String(res.id));
    }
    const asJson = await sendJson(
      graph(`/${pageId}/feed`),
      { message: 'Album', attached_media: ids.slice(0, 2).map((media_fbid) => ({ media_fbid })) },
      { authorization: `Bearer ${pageToken}` },
    );
    expect(asJson.status).toBe(200);
    const asForm = await postForm(graph(`/${pageId}/feed`), {
      message: 'One more',
      'attached_media[0]': JSON.stringify({ media_fbid: ids[2] }),
      access_token: pageToken,
    });
    expect(asForm.status).toBe(200);
    const reuse = await postForm(graph(`/${pageId}/feed`), {
      message: 'again',
      'attached_media[0]': JSON.stringify({ media_fbid: ids[0] }),
      access_token: pageToken,
    });
    expect(await json(reuse)).toMatchObject({ error: { code: 100 } });
    expect(
      await json(await postForm(graph(`/${pageId}/feed`), { attached_media: 'nope', access_token: pageToken })),
    ).toMatchObject({ error: { code: 100 } });
    const posts = await objects(sb, 'facebook', 'posts');
    expect(posts.map((p) => p.media)).toEqual([ids.slice(0, 2), [ids[2]]]);
  });

  it('publishes a video from file_url and reports processing → ready', async () => {
    await sb.lenient('public_media_only'); // media on made-up hosts (cdn.example.com), judged by their names
    const { pageId, pageToken } = await page();
    const res = await postForm(graph(`/${pageId}/videos`), {
      file_url: 'https://cdn.example.com/clip.mp4',
      description: 'Clip',
      title: 'T',
      access_token: pageToken,
    });
    expect(res.status).toBe(200);
    const { id } = await json(res);
    const status = () =>
      fetch(`${graph(`/${String(id)}`)}?fields=status,permalink_url&access_token=${pageToken}`).then(json);
    const done = await poll(status, (s) => String((s.status as Json).video_status) === 'ready');
    expect(done).toMatchObject({
      status: { processing_phase: { status: 'complete' }, publishing_phase: { status: 'complete' } },
      permalink_url: `/${pageId}/videos/${String(id)}/`,
    });

    const broken = await json(
      await postForm(graph(`/${pageId}/videos`), {
        file_url: 'https://cdn.example.com/corrupt.mp4',
        access_token: pageToken,
      }),
    );
    await poll(
      () => fetch(`${graph(`/${String(broken.id)}`)}?fields=status&access_token=${pageToken}`).then(json),
      (s) => String((s.status as Json).video_status) === 'error',
    );
    expect((await objects(sb, 'facebook', 'posts')).map((p) => p.media)).toEqual([[id]]);

    const noVideoScope = await connectFacebook(sb, 'pages_show_list,pages_manage_posts,pages_read_engagement');
    const refused = await postForm(graph(`/${pageId}/videos`), {
      file_url: 'https://cdn.example.com/clip.mp4',
      access_token: noVideoScope.pages[0]?.token ?? '',
    });
    expect(await json(refused)).toMatchObject({ error: { code: 10 } });
  });

  it('uploads a video in start / transfer / finish phases', async () => {
    const { pageId, pageToken } = await page();
    const size = 2 * 1024 * 1024 + 500;
    const file = fixture.mp4(size);
    const start = await json(
      await postForm(graph(`/${pageId}/videos`), {
        upload_phase: 'start',
        file_size: String(size),
        access_token: pageToken,
      }),
    );
    expect(start).toMatchObject({ start_offset: '0', end_offset: '1048576' });
    const session = String(start.upload_session_id);
    const transfer = (from: number, to: number, offset = from) =>
      fetch(graph(`/${pageId}/videos`), {
        method: 'POST',
        body: multipart(
          {
            access_token: pageToken,
            upload_phase: 'transfer',
            upload_session_id: session,
            start_offset: String(offset),
          },
          { name: 'video_file_chunk', bytes: file.subarray(from, to), type: 'video/mp4' },
        ),
      }).then(json);
    const early = await postForm(graph(`/${pageId}/videos`), {
      upload_phase: 'finish',
      upload_session_id: session,
      access_token: pageToken,
    });
    expect(await json(early)).toMatchObject({ error: { code: 6001 } });
    expect(await transfer(0, 1048576)).toEqual({ start_offset: '1048576', end_offset: '2097152' });
    expect(await transfer(0, 1048576)).toMatchObject({ error: { code: 6001 } });
    expect(await transfer(1048576, 2097152)).toEqual({ start_offset: '2097152', end_offset: String(size) });
    expect(await transfer(2097152, size)).toEqual({ start_offset: String(size), end_offset: String(size) });
    const finish = await postForm(graph(`/${pageId}/videos`), {
      upload_phase: 'finish',
      upload_session_id: session,
      description: 'Chunked',
      access_token: pageToken,
    });
    expect(await json(finish)).toEqual({ success: true });
    const posts = await objects(sb, 'facebook', 'posts');
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ text: 'Chunked', media: [start.video_id] });
    expect(await objects(sb, 'facebook', 'uploads')).toMatchObject([
      { id: session, received: size, status: 'finished' },
    ]);
  });

  it('deletes posts and injects faults on publish, upload and status', async () => {
    const { pageId, pageToken } = await page();
    const { id } = await json(await postForm(graph(`/${pageId}/feed`), { message: 'bye', access_token: pageToken }));
    expect(
      await json(await fetch(`${graph(`/${String(id)}`)}?access_token=${pageToken}`, { method: 'DELETE' })),
    ).toEqual({ success: true });
    expect(await objects(sb, 'facebook', 'posts')).toHaveLength(0);

    await sb.fault({ platform: 'facebook', operation: 'publish', fault: 'rate_limit' });
    expect(
      await json(await postForm(graph(`/${pageId}/feed`), { message: 'x', access_token: pageToken })),
    ).toMatchObject({ error: { code: 4, is_transient: true } });
    await sb.fault({ platform: 'facebook', operation: 'upload', fault: 'server_error' });
    const unpublished = await postForm(graph(`/${pageId}/photos`), {
      url: 'https://cdn.example.com/a.jpg',
      published: 'false',
      access_token: pageToken,
    });
    expect(unpublished.status).toBe(500);
    const video = await json(
      await postForm(graph(`/${pageId}/videos`), {
        file_url: 'https://cdn.example.com/v.mp4',
        access_token: pageToken,
      }),
    );
    await sb.fault({ platform: 'facebook', operation: 'status', fault: 'server_error' });
    expect((await fetch(`${graph(`/${String(video.id)}`)}?fields=status&access_token=${pageToken}`)).status).toBe(500);
    expect((await fetch(`${graph('/me')}?access_token=${pageToken}`)).status).toBe(200);
  });
});

import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.ts';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connectAccount, mediaDirs, mp4, png, storagePath, upload } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

async function add(
  u: TestUser,
  kind: 'image' | 'video',
  platform?: string,
): Promise<{ media_id: string; public_url: string }> {
  const res = await upload(h, asUser(u), [
    { name: 'media_type', value: kind },
    ...(platform ? [{ name: 'platform', value: platform }] : []),
    {
      name: 'media',
      filename: kind === 'image' ? 'pic.png' : 'clip.mp4',
      data: kind === 'image' ? await png() : await mp4(),
    },
  ]);
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json();
}

const list = (headers: Record<string, string>, query = '') => h.req({ method: 'GET', url: `/media${query}`, headers });

/** A workspace with two library images, one library video and one Instagram image. */
async function stocked() {
  const u = await h.signup();
  await connectAccount(h, u, 'instagram');
  const a = await add(u, 'image');
  const b = await add(u, 'image');
  const v = await add(u, 'video');
  const ig = await add(u, 'image', 'instagram');
  return { u, a, b, v, ig };
}

describe('GET /media', () => {
  it('lists newest first with filters and paging, with and without the trailing slash', async () => {
    const { u, a, v, ig } = await stocked();
    const all = await list(asUser(u));
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json()).toMatchObject({ success: true, total: 4, limit: 50, offset: 0, count: 4 });
    expect(all.json().media[0]).toMatchObject({
      media_id: ig.media_id,
      platform: 'instagram',
      status: 'ready',
      uploaded_at: expect.any(String),
      file_size: expect.any(Number),
    });
    expect((await list(asUser(u), '/')).json().total).toBe(4);
    expect(
      (await list(asUser(u), '?media_type=video')).json().media.map((m: { media_id: string }) => m.media_id),
    ).toEqual([v.media_id]);
    expect((await list(asUser(u), '?platform=instagram')).json().total).toBe(1);
    expect((await list(asUser(u), '/?platform=library&media_type=image')).json().total).toBe(2);
    const page = (await list(asUser(u), '?limit=1&offset=3')).json();
    expect(page).toMatchObject({ total: 4, limit: 1, offset: 3, count: 1 });
    expect(page.media[0].media_id).toBe(a.media_id);
    expect((await list(asUser(u), '?offset=10')).json()).toMatchObject({ total: 4, count: 0, media: [] });
  });

  it('422 for limit outside 1–100, a negative offset or an unknown media_type; 400 for an unknown platform', async () => {
    const u = await h.signup();
    for (const q of ['?limit=0', '?limit=101', '?offset=-1', '?limit=abc', '?media_type=audio']) {
      expect((await list(asUser(u), q)).statusCode, q).toBe(422);
    }
    expect((await list(asUser(u), '?limit=100')).statusCode).toBe(200);
    expect((await list(asUser(u), '?platform=myspace')).statusCode).toBe(400);
  });

  it("shows a narrow key only library media and its own platforms' media", async () => {
    const { u, ig } = await stocked();
    const key = await h.createKey(u, 'linkedin');
    const res = await list({ 'x-api-key': key });
    expect(res.json().total).toBe(3);
    expect(res.json().media.map((m: { media_id: string }) => m.media_id)).not.toContain(ig.media_id);
    expect((await list({ 'x-api-key': key }, '?platform=instagram')).statusCode).toBe(403);
    expect(
      (await h.req({ method: 'GET', url: `/media/${ig.media_id}`, headers: { 'x-api-key': key } })).statusCode,
    ).toBe(403);
  });
});

describe("a key's scope on media staged for another network", () => {
  it('a linkedin key cannot read, list, delete or post media staged for TikTok; library media stays usable', async () => {
    const u = await h.signup();
    await connectAccount(h, u, 'tiktok');
    const tiktok = await add(u, 'image', 'tiktok');
    const library = await add(u, 'image');
    const key = { 'x-api-key': await h.createKey(u, 'linkedin') };
    expect((await h.req({ method: 'GET', url: `/media/${tiktok.media_id}`, headers: key })).statusCode).toBe(403);
    expect((await list(key)).json().media.map((m: { media_id: string }) => m.media_id)).toEqual([library.media_id]);
    const bulk = await h.req({
      method: 'DELETE',
      url: '/media/bulk',
      headers: key,
      payload: { media_ids: [tiktok.media_id] },
    });
    expect(bulk.json()).toMatchObject({ deleted_count: 0, failed_count: 1 });
    expect((await h.req({ method: 'DELETE', url: `/media/${tiktok.media_id}`, headers: key })).statusCode).toBe(403);
    // Posting it to a network the key may use is reading it too.
    const post = (id: string) =>
      h.req({
        method: 'POST',
        url: '/unified/post/image',
        headers: key,
        payload: { platforms: ['linkedin'], default_text: 'x', default_image_id: id },
      });
    const refused = await post(tiktok.media_id);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(String(refused.json().detail)).toContain("platform 'tiktok'");
    const allowed = await post(library.media_id);
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(allowed.json()).toMatchObject({ success: false, error: 'NOT_CONNECTED' });
    expect((await h.req({ method: 'GET', url: `/media/${tiktok.media_id}`, headers: asUser(u) })).statusCode).toBe(200);
  });
});

describe('GET /media/{id}', () => {
  it("returns the record; another workspace's id is 404; a malformed id 422", async () => {
    const { u, v } = await stocked();
    const res = await h.req({ method: 'GET', url: `/media/${v.media_id}`, headers: asUser(u) });
    expect(res.json()).toMatchObject({
      success: true,
      message: 'Media retrieved successfully',
      media_id: v.media_id,
      media_type: 'video',
      public_url: v.public_url,
      platform: null,
      platform_user_id: null,
    });
    const stranger = await h.signup();
    const other = await h.req({ method: 'GET', url: `/media/${v.media_id}`, headers: asUser(stranger) });
    expect(other.statusCode).toBe(404);
    expect(other.json().detail).toBe(`Media not found: ${v.media_id}`);
    expect((await h.req({ method: 'GET', url: '/media/not-a-uuid', headers: asUser(u) })).statusCode).toBe(422);
  });
});

describe('deleting', () => {
  it('DELETE /media/{id} removes the row and the object; the public URL stops serving', async () => {
    const { u, a } = await stocked();
    const stranger = await h.signup();
    expect((await h.req({ method: 'DELETE', url: `/media/${a.media_id}`, headers: asUser(stranger) })).statusCode).toBe(
      404,
    );
    expect((await h.req({ method: 'GET', url: storagePath(a.public_url) })).statusCode).toBe(200);
    const res = await h.req({ method: 'DELETE', url: `/media/${a.media_id}`, headers: asUser(u) });
    expect(res.json()).toEqual({ success: true, message: 'Media deleted successfully' });
    expect((await h.req({ method: 'GET', url: `/media/${a.media_id}`, headers: asUser(u) })).statusCode).toBe(404);
    expect((await h.req({ method: 'GET', url: storagePath(a.public_url) })).statusCode).toBe(404);
    expect((await h.req({ method: 'HEAD', url: storagePath(a.public_url) })).statusCode).toBe(404);
    const key = storagePath(a.public_url).replace(/^\/storage\//, '');
    expect(existsSync(join(mediaDirs(h).objects, key))).toBe(false);
    expect((await h.req({ method: 'DELETE', url: `/media/${a.media_id}`, headers: asUser(u) })).statusCode).toBe(404);
  });

  it('DELETE /media/bulk deletes the found ids and reports the rest; at most 100 ids', async () => {
    const { u, a, b } = await stocked();
    const other = await h.signup();
    const theirs = await add(other, 'image');
    const missing = randomUUID();
    const res = await h.req({
      method: 'DELETE',
      url: '/media/bulk',
      headers: asUser(u),
      payload: { media_ids: [a.media_id, b.media_id, theirs.media_id, missing, 'junk', a.media_id] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'Deleted 2 media, 3 failed',
      deleted_count: 2,
      failed_count: 3,
      errors: [
        { media_id: theirs.media_id, error: `Media not found: ${theirs.media_id}` },
        { media_id: missing, error: `Media not found: ${missing}` },
        { media_id: 'junk', error: 'Media not found: junk' },
      ],
    });
    expect((await h.req({ method: 'GET', url: storagePath(theirs.public_url) })).statusCode).toBe(200);
    expect((await list(asUser(u))).json().total).toBe(2);
    const tooMany = Array.from({ length: 101 }, () => randomUUID());
    expect(
      (await h.req({ method: 'DELETE', url: '/media/bulk', headers: asUser(u), payload: { media_ids: tooMany } }))
        .statusCode,
    ).toBe(422);
    expect(
      (await h.req({ method: 'DELETE', url: '/media/bulk', headers: asUser(u), payload: { media_ids: [] } }))
        .statusCode,
    ).toBe(422);
    const clean = await h.req({
      method: 'DELETE',
      url: '/media/bulk',
      headers: asUser(u),
      payload: { media_ids: [(await list(asUser(u))).json().media[0].media_id] },
    });
    expect(clean.json()).toMatchObject({ success: true, deleted_count: 1, failed_count: 0, errors: null });
  });

  it('DELETE /media/filter deletes every match of the workspace only; a filter is required', async () => {
    const { u, v, ig } = await stocked();
    const other = await stocked();
    expect((await h.req({ method: 'DELETE', url: '/media/filter', headers: asUser(u) })).statusCode).toBe(422);
    const images = await h.req({
      method: 'DELETE',
      url: '/media/filter?media_type=image&platform=library',
      headers: asUser(u),
    });
    expect(images.json()).toEqual({
      success: true,
      message: 'Deleted 2 media',
      deleted_count: 2,
      failed_count: 0,
      errors: null,
    });
    const left = (await list(asUser(u))).json().media.map((m: { media_id: string }) => m.media_id);
    expect(left.sort()).toEqual([v.media_id, ig.media_id].sort());
    const igGone = await h.req({ method: 'DELETE', url: '/media/filter?platform=instagram', headers: asUser(u) });
    expect(igGone.json().deleted_count).toBe(1);
    expect((await h.req({ method: 'GET', url: storagePath(ig.public_url) })).statusCode).toBe(404);
    expect((await list(asUser(other.u))).json().total).toBe(4);
  });
});

describe('resolveMediaForWorkspace', () => {
  it("returns the workspace's records in order and 404s any other id", async () => {
    const { u, a, v } = await stocked();
    const other = await stocked();
    const rows = await h.ctx.media.resolveMediaForWorkspace(u.workspaceId, [v.media_id, a.media_id]);
    expect(rows.map((r) => r.id)).toEqual([v.media_id, a.media_id]);
    for (const bad of [other.a.media_id, randomUUID(), 'nope']) {
      const err = await h.ctx.media.resolveMediaForWorkspace(u.workspaceId, [a.media_id, bad]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ status: 404, detail: `Media not found: ${bad}` });
    }
    expect(await h.ctx.media.resolveMediaForWorkspace(u.workspaceId, [])).toEqual([]);
  });
});

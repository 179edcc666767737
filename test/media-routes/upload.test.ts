import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from '../../src/db/orm.ts';
import { media } from '../../src/db/schema-media.ts';
import { asUser, createHarness, type Harness } from '../helpers/harness.ts';
import {
  connectAccount,
  filesUnder,
  jpeg,
  mediaDirs,
  mp4,
  multipart,
  png,
  storagePath,
  upload,
  webm,
} from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  // Small limits so the size checks run on small fixtures.
  h = await createHarness({
    env: { HERALD_MEDIA_MAX_IMAGE_BYTES: String(256 * 1024), HERALD_MEDIA_MAX_VIDEO_BYTES: String(2 * 1024 * 1024) },
  });
});
afterAll(async () => h?.close());

const rowsOf = (workspaceId: string) =>
  h.ctx.database.db.select().from(media).where(eq(media.workspaceId, workspaceId));

describe('POST /media/upload: single files', () => {
  it('stores an image from the bytes, probes it, and serves it at public_url', async () => {
    const u = await h.signup();
    const bytes = await png(64, 48);
    const res = await upload(h, asUser(u), [
      { name: 'media_type', value: 'image' },
      // The name and Content-Type claim a JPEG; the bytes decide.
      { name: 'media', filename: 'Holiday photo.jpg', data: bytes, type: 'image/jpeg' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      message: 'Media uploaded successfully',
      media_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      filename: 'Holiday-photo.png',
      original_filename: 'Holiday photo.jpg',
      file_size: bytes.length,
      media_type: 'image',
      mime_type: 'image/png',
      format: 'png',
      width: 64,
      height: 48,
      platform: null,
      platform_user_id: null,
      status: 'ready',
    });
    expect(body.public_url).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:1/storage/${u.workspaceId}/library/[A-Za-z0-9_-]{22}/Holiday-photo\\.png$`),
    );
    const served = await h.req({ method: 'GET', url: storagePath(body.public_url) });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(bytes)).toBe(true);
    // Nothing is left in the temp directory.
    expect(filesUnder(mediaDirs(h).temp)).toEqual([]);
  });

  it('stores a video with its probed facts on the record', async () => {
    const u = await h.signup();
    const bytes = await mp4({ width: 1280, height: 720, durationSec: 12.5 });
    const res = await upload(h, asUser(u), [
      { name: 'media', filename: 'clip.mp4', data: bytes },
      { name: 'media_type', value: 'video' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      media_type: 'video',
      format: 'mp4',
      mime_type: 'video/mp4',
      width: 1280,
      height: 720,
      duration: 12.5,
      video_codec: 'h264',
      audio_codec: 'aac',
    });
    const [row] = await rowsOf(u.workspaceId);
    expect(row).toMatchObject({
      durationMs: 12500,
      videoCodec: 'h264',
      metadata: expect.objectContaining({ rotation: 0, source: 'upload' }),
    });
  });

  it('accepts an API key (workspace from the key) and webm video', async () => {
    const u = await h.signup();
    const key = await h.createKey(u, 'full');
    const res = await upload(h, { 'x-api-key': key }, [
      { name: 'media_type', value: 'video' },
      { name: 'media', filename: 'rec.webm', data: await webm() },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ format: 'webm', width: 1280, height: 720 });
  });

  it('stages media for a connected platform with its account id; refuses an unconnected one', async () => {
    const u = await h.signup();
    const notYet = await upload(h, asUser(u), [
      { name: 'media_type', value: 'image' },
      { name: 'platform', value: 'instagram' },
      { name: 'media', filename: 'a.png', data: await png() },
    ]);
    expect(notYet.statusCode).toBe(400);
    expect(notYet.json().detail).toEqual({
      error: 'NOT_CONNECTED',
      message: 'Instagram not connected for this workspace.',
    });
    const account = await connectAccount(h, u, 'instagram');
    const res = await upload(h, asUser(u), [
      { name: 'media_type', value: 'image' },
      { name: 'platform', value: 'Instagram' },
      { name: 'media', filename: 'a.png', data: await png() },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ platform: 'instagram', platform_user_id: account });
    expect(res.json().public_url).toContain(`/${u.workspaceId}/instagram/`);
  });

  it('records twitter (alias x) without a connection, for full-scope keys only', async () => {
    const u = await h.signup();
    const res = await upload(h, asUser(u), [
      { name: 'media_type', value: 'image' },
      { name: 'platform', value: 'x' },
      { name: 'media', filename: 'a.png', data: await png() },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ platform: 'twitter', platform_user_id: null });
    const listKey = await h.createKey(u, 'linkedin,instagram');
    const denied = await upload(h, { 'x-api-key': listKey }, [
      { name: 'media_type', value: 'image' },
      { name: 'platform', value: 'twitter' },
      { name: 'media', filename: 'a.png', data: await png() },
    ]);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().detail).toContain("platform 'twitter'");
  });

  it('refuses a multipart upload for a platform outside the key scope, before reading the file', async () => {
    const u = await h.signup();
    await connectAccount(h, u, 'tiktok');
    const key = await h.createKey(u, 'linkedin');
    const res = await upload(h, { 'x-api-key': key }, [
      { name: 'platform', value: 'tiktok' },
      { name: 'media_type', value: 'image' },
      { name: 'media', filename: 'a.png', data: await png() },
    ]);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toContain("'tiktok'");
    expect(res.json().detail).toContain('Key scope: linkedin');
    expect(await rowsOf(u.workspaceId)).toEqual([]);
  });
});

describe('POST /media/upload: several images', () => {
  it('uploads 2–35 images and keeps the good ones when one is bad', async () => {
    const u = await h.signup();
    const res = await upload(h, asUser(u), [
      { name: 'media_type', value: 'images' },
      { name: 'images', filename: 'one.png', data: await png(10, 10) },
      { name: 'images', filename: 'two.jpg', data: await jpeg(20, 10) },
      { name: 'images', filename: 'three.txt', data: Buffer.from('not an image at all') },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: 'Uploaded 2 images', uploaded_count: 2, failed_count: 1 });
    expect(body.media_ids).toHaveLength(2);
    expect(body.public_urls).toHaveLength(2);
    expect(body.errors).toEqual([
      { index: 2, source: 'three.txt', error: expect.stringContaining('Unsupported file format') },
    ]);
    expect(await rowsOf(u.workspaceId)).toHaveLength(2);
  });

  it('answers 422 when every image fails', async () => {
    const u = await h.signup();
    const bad = Buffer.from('plain text');
    const res = await upload(h, asUser(u), [
      { name: 'media_type', value: 'images' },
      { name: 'images', filename: 'a', data: bad },
      { name: 'images', filename: 'b', data: bad },
    ]);
    expect(res.statusCode).toBe(422);
    expect(res.json().detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([
      ['body', 'images', 0],
      ['body', 'images', 1],
    ]);
  });

  it('refuses 1 and 36 images with 422', async () => {
    const u = await h.signup();
    const img = await png(8, 8);
    const one = await upload(h, asUser(u), [
      { name: 'media_type', value: 'images' },
      { name: 'images', filename: 'a.png', data: img },
    ]);
    expect(one.statusCode).toBe(422);
    expect(one.json().detail[0]).toMatchObject({
      loc: ['body', 'images'],
      msg: 'Between 2 and 35 images are required (got 1).',
    });
    const many = Array.from({ length: 36 }, (_, i) => ({ name: 'images', filename: `${i}.png`, data: img }));
    const over = await upload(h, asUser(u), [{ name: 'media_type', value: 'images' }, ...many]);
    expect(over.statusCode).toBe(422);
    expect(over.json().detail[0]).toMatchObject({ loc: ['body', 'images'], msg: 'At most 35 images per request.' });
    expect(await rowsOf(u.workspaceId)).toEqual([]);
    expect(filesUnder(mediaDirs(h).temp)).toEqual([]);
  });
});

describe('POST /media/upload: bad input', () => {
  it('no file and no URL → 422; both → 422; missing media_type with a URL or unknown media_type → 422; unknown platform → 400', async () => {
    const u = await h.signup();
    const img = await png();
    const none = await upload(h, asUser(u), [{ name: 'media_type', value: 'image' }]);
    expect(none.statusCode).toBe(422);
    expect(none.json().detail[0]).toMatchObject({ loc: ['body', 'media'], type: 'missing' });
    const both = await upload(h, asUser(u), [
      { name: 'media_type', value: 'image' },
      { name: 'media_url', value: 'https://example.com/a.png' },
      { name: 'media', filename: 'a.png', data: img },
    ]);
    expect(both.statusCode).toBe(422);
    expect(both.json().detail[0].loc).toEqual(['body', 'media_url']);
    // A file without media_type is typed from its bytes (test/compat/media-upload.test.ts); a URL is not.
    const noType = await upload(h, asUser(u), [{ name: 'media_url', value: 'https://example.com/a.png' }]);
    expect(noType.statusCode).toBe(422);
    expect(noType.json().detail[0]).toMatchObject({ loc: ['body', 'media_type'], msg: 'Field required' });
    const badType = await upload(h, asUser(u), [
      { name: 'media_type', value: 'document' },
      { name: 'media', filename: 'a.png', data: img },
    ]);
    expect(badType.statusCode).toBe(422);
    const platform = await upload(h, asUser(u), [
      { name: 'media_type', value: 'image' },
      { name: 'platform', value: 'myspace' },
      { name: 'media', filename: 'a.png', data: img },
    ]);
    expect(platform.statusCode).toBe(400);
    expect(platform.json().detail).toMatch(/^Invalid or unsupported platform: 'myspace'/);
    const json = await h.req({
      method: 'POST',
      url: '/media/upload',
      headers: asUser(u),
      payload: { media_type: 'image' },
    });
    const noWorkspace = await upload(h, { authorization: `Bearer ${u.token}` }, [
      { name: 'media_type', value: 'image' },
      { name: 'media', filename: 'a.png', data: img },
    ]);
    expect(noWorkspace.statusCode).toBe(400);
    expect(json.statusCode).toBe(422);
    expect(await rowsOf(u.workspaceId)).toEqual([]);
  });

  it('checks the bytes against media_type and refuses unreadable media', async () => {
    const u = await h.signup();
    const asVideo = await upload(h, asUser(u), [
      { name: 'media_type', value: 'video' },
      { name: 'media', filename: 'a.mp4', data: await png() },
    ]);
    expect(asVideo.statusCode).toBe(422);
    expect(asVideo.json().detail[0]).toMatchObject({
      loc: ['body', 'media'],
      type: 'media_type_mismatch',
      msg: 'The file is an image (png) but media_type is video.',
    });
    const pdf = await upload(h, asUser(u), [
      { name: 'media_type', value: 'image' },
      { name: 'media', filename: 'a.png', data: Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n') },
    ]);
    expect(pdf.statusCode).toBe(422);
    expect(pdf.json().detail[0].msg).toMatch(/^Unsupported file format \(the bytes are application\/pdf\)/);
    const truncatedPng = (await png(200, 200)).subarray(0, 60);
    const broken = await upload(h, asUser(u), [
      { name: 'media_type', value: 'image' },
      { name: 'media', filename: 'a.png', data: truncatedPng },
    ]);
    expect(broken.statusCode).toBe(422);
    expect(broken.json().detail[0].type).toBe('media_unreadable');
    expect(await rowsOf(u.workspaceId)).toEqual([]);
    expect(filesUnder(mediaDirs(h).objects).filter((f) => f.includes(u.workspaceId))).toEqual([]);
  });

  it('refuses media that is broken past its header up front: a JPEG cut short, an MP4 whose media data is cut off', async () => {
    const u = await h.signup();
    const photo = await sharp({
      create: {
        width: 200,
        height: 150,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg()
      .toBuffer();
    const video = await mp4({ moovFirst: true, mdatBytes: 8192 });
    const cases = [
      [
        'image',
        photo.subarray(0, photo.length - 2),
        /^Could not read the image: the image data is incomplete or corrupt/,
      ],
      [
        'image',
        photo.subarray(0, Math.floor(photo.length * 0.7)),
        /^Could not read the image: the image data is incomplete or corrupt/,
      ],
      ['video', video.subarray(0, video.length - 1000), /^Could not read the video: the file is truncated/],
    ] as const;
    for (const [kind, data, msg] of cases) {
      const res = await upload(h, asUser(u), [
        { name: 'media_type', value: kind },
        { name: 'media', filename: `a.${kind === 'image' ? 'jpg' : 'mp4'}`, data },
      ]);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().detail[0]).toMatchObject({
        loc: ['body', 'media'],
        type: 'media_unreadable',
        msg: expect.stringMatching(msg),
      });
    }
    expect(await rowsOf(u.workspaceId)).toEqual([]);
    const whole = await upload(h, asUser(u), [
      { name: 'media_type', value: 'image' },
      { name: 'media', filename: 'a.jpg', data: photo },
    ]);
    expect(whole.statusCode, whole.body).toBe(200);
  });

  it('413 naming the limit for a streamed file over it; nothing stored', async () => {
    const u = await h.signup();
    const big = await sharpNoise(400, 400);
    expect(big.length).toBeGreaterThan(256 * 1024);
    const res = await upload(h, asUser(u), [
      { name: 'media_type', value: 'image' },
      { name: 'media', filename: 'big.png', data: big },
    ]);
    expect(res.statusCode).toBe(413);
    expect(res.json().detail).toContain('the limit for images is 256 KiB (262144 bytes');
    expect(res.json().detail).toContain('HERALD_MEDIA_MAX_IMAGE_BYTES');
    // media_type after the file: the file is read with the larger limit, then checked as an image.
    const late = await upload(h, asUser(u), [
      { name: 'media', filename: 'big.png', data: big },
      { name: 'media_type', value: 'image' },
    ]);
    expect(late.statusCode).toBe(413);
    expect(await rowsOf(u.workspaceId)).toEqual([]);
    expect(filesUnder(mediaDirs(h).temp)).toEqual([]);
  });

  it('a truncated multipart body → 400, no record, no temp file, no object', async () => {
    const u = await h.signup();
    const { payload, headers } = multipart([
      { name: 'media_type', value: 'image' },
      { name: 'media', filename: 'a.png', data: await png(100, 100) },
    ]);
    const cut = payload.subarray(0, payload.length - 200);
    const res = await h.req({
      method: 'POST',
      url: '/media/upload',
      headers: { ...asUser(u), ...headers },
      payload: cut,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('Malformed or truncated multipart body.');
    expect(await rowsOf(u.workspaceId)).toEqual([]);
    expect(filesUnder(mediaDirs(h).temp)).toEqual([]);
    expect(filesUnder(mediaDirs(h).objects).filter((f) => f.includes(u.workspaceId))).toEqual([]);
  });
});

/** Random pixels do not compress: a PNG well over the 256 KiB test limit. */
function sharpNoise(width: number, height: number): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

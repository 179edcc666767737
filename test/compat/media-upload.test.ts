// POST /media/upload as the documented n8n guide sends it — the file under `file`, and
// no media_type (the type is read from the bytes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness } from '../helpers/harness.ts';
import { mp4, png, upload } from '../media-routes/helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    env: { HERALD_MEDIA_MAX_IMAGE_BYTES: String(256 * 1024), HERALD_MEDIA_MAX_VIDEO_BYTES: String(2 * 1024 * 1024) },
  });
});
afterAll(() => h?.close());

describe('POST /media/upload for clients of the public documentation', () => {
  it('takes the file under `file` without media_type, and reads image or video from the bytes', async () => {
    const u = await h.signup();
    const img = await upload(h, asUser(u), [
      { name: 'file', filename: 'upload.bin', data: await png(), type: 'application/octet-stream' },
    ]);
    expect(img.statusCode, img.body).toBe(200);
    expect(img.json()).toMatchObject({
      success: true,
      media_type: 'image',
      media_id: expect.any(String),
      public_url: expect.any(String),
    });
    const video = await upload(h, asUser(u), [{ name: 'file', filename: 'clip', data: await mp4() }]);
    expect(video.statusCode, video.body).toBe(200);
    expect(video.json()).toMatchObject({ success: true, media_type: 'video' });
    const got = await h.req({ method: 'GET', url: `/media/${img.json().media_id}`, headers: asUser(u) });
    expect(got.json()).toMatchObject({ media_type: 'image', media_id: img.json().media_id });
  });

  it('still checks a declared media_type against the bytes, and refuses what is neither image nor video', async () => {
    const u = await h.signup();
    const mismatch = await upload(h, asUser(u), [
      { name: 'media_type', value: 'video' },
      { name: 'file', filename: 'a.png', data: await png() },
    ]);
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().detail[0].loc).toEqual(['body', 'file']);
    const text = await upload(h, asUser(u), [
      { name: 'file', filename: 'notes.txt', data: Buffer.from('just some text, not media') },
    ]);
    expect(text.statusCode).toBe(422);
    expect(text.json().detail[0].loc).toEqual(['body', 'file']);
    const both = await upload(h, asUser(u), [
      { name: 'media', filename: 'a.png', data: await png() },
      { name: 'file', filename: 'b.png', data: await png() },
    ]);
    expect(both.statusCode).toBe(422);
  });
});

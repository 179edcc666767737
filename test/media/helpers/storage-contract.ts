// What every MediaStorage adapter must do alike, asserted once and run by each adapter's test against its own back end.
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { expect } from 'vitest';
import { ObjectNotFoundError, RangeNotSatisfiableError } from '../../../src/media/storage/types.ts';
import type { MediaStorage } from '../../../src/media/storage/types.ts';

/** Put from a multi-chunk stream, get, head, delete; afterwards the object is gone and deleting again is fine. */
export async function expectRoundTrip(storage: MediaStorage, key: string): Promise<void> {
  const put = await storage.put(key, Readable.from([Buffer.from('hello '), Buffer.from('world')]), {
    contentType: 'image/png',
  });
  expect(put).toEqual({ size: 11, etag: '"5eb63bbbe01eeed093cb22bb8f5acdc3"' });
  const got = await storage.get(key);
  expect(got).toMatchObject({ size: 11, contentType: 'image/png', etag: put.etag });
  expect(await text(got.body)).toBe('hello world');
  expect(await storage.head(key)).toEqual({ size: 11, contentType: 'image/png', etag: put.etag });
  await storage.delete(key);
  expect(await storage.head(key)).toBeNull();
  await expect(storage.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
  await storage.delete(key); // deleting twice is fine
}

/** A ten-byte object read in parts: inner, open-ended, clamped past the end, and starting past the end. */
export async function expectByteRanges(storage: MediaStorage, key: string): Promise<void> {
  await storage.put(key, Readable.from([Buffer.from('0123456789')]), { contentType: 'video/mp4' });
  const mid = await storage.get(key, { start: 2, end: 5 });
  expect(mid).toMatchObject({ size: 10, range: { start: 2, end: 5 }, contentType: 'video/mp4' });
  expect(await text(mid.body)).toBe('2345');
  const tail = await storage.get(key, { start: 7 });
  expect(tail.range).toEqual({ start: 7, end: 9 });
  expect(await text(tail.body)).toBe('789');
  const clamped = await storage.get(key, { start: 8, end: 1000 });
  expect(await text(clamped.body)).toBe('89');
  await expect(storage.get(key, { start: 10 })).rejects.toMatchObject({
    name: RangeNotSatisfiableError.name,
    size: 10,
  });
}

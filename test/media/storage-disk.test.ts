import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiskStorage } from '../../src/media/storage/disk.ts';
import { assertValidKey, newObjectKey, sanitizeFilename } from '../../src/media/storage/keys.ts';
import { InvalidKeyError, RangeNotSatisfiableError, UploadSizeMismatchError } from '../../src/media/storage/types.ts';
import { expectByteRanges, expectRoundTrip } from './helpers/storage-contract.ts';

let root: string;
let storage: DiskStorage;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'herald-disk-'));
  storage = new DiskStorage({ root, publicBaseUrl: 'https://herald.example/media/' });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Every file under the root, relative, so tests can assert nothing was left behind. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

/** A stream that sends some bytes and then fails, like a client that disconnects mid-upload. */
function failingStream(bytes: number): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(Buffer.alloc(bytes, 1));
        setTimeout(() => this.destroy(new Error('client went away')), 10);
      }
    },
  });
}

describe('keys', () => {
  it('makes unguessable per-workspace keys with a sanitized name', () => {
    const a = newObjectKey({ workspaceId: 'ws_123', scope: 'library', filename: '../../Ünïcödé Photo (1).JPG' });
    const b = newObjectKey({ workspaceId: 'ws_123', scope: 'library', filename: '../../Ünïcödé Photo (1).JPG' });
    expect(a).toMatch(/^ws_123\/library\/[A-Za-z0-9_-]{22}\/Unicode-Photo-1\.jpg$/);
    expect(a).not.toBe(b);
    expect(newObjectKey({ workspaceId: 'w', scope: 'bluesky', filename: 'clip.txt', extension: 'mp4' })).toMatch(
      /\/clip\.mp4$/,
    );
  });

  it.each([
    ['..', 'file'],
    ['.htaccess', 'htaccess'],
    ['a/b\\c.png', 'c.png'],
    ['', 'file'],
    [`${'x'.repeat(300)}.webp`, `${'x'.repeat(100)}.webp`],
    ['résumé.PDF', 'resume.pdf'],
    ['photo.', 'photo'],
    ['中文.png', 'file.png'],
  ])('sanitizes %j to %j', (input, expected) => {
    expect(sanitizeFilename(input)).toBe(expected);
  });

  it.each(['', '/abs', 'a//b', '../x', 'a/../b', 'a/./b', '.meta/x', '.tmp/y', 'a\\b', 'a/b%2f..', 'nul\0byte', 'ü'])(
    'refuses key %j',
    (key) => {
      expect(() => assertValidKey(key)).toThrow(InvalidKeyError);
    },
  );
});

describe('DiskStorage', () => {
  const key = 'ws1/library/AbCdEfGhIjKlMnOpQrStUv/photo.png';

  it('stores, reads, heads and deletes an object', async () => {
    await expectRoundTrip(storage, key);
    expect((await readdir(root)).sort()).toEqual(['.meta', '.tmp']); // empty key directories are pruned
    expect(await readdir(join(root, '.meta'))).toEqual([]);
  });

  it('serves byte ranges', async () => {
    await expectByteRanges(storage, key);
    await expect(storage.get(key, { start: 5, end: 4 })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
  });

  it('replaces an object atomically', async () => {
    await storage.put(key, Readable.from([Buffer.from('first')]), { contentType: 'image/png' });
    await storage.put(key, Readable.from([Buffer.from('second!')]), { contentType: 'image/webp' });
    const got = await storage.get(key);
    expect(got.contentType).toBe('image/webp');
    expect(await text(got.body)).toBe('second!');
  });

  it('leaves neither object nor temp file when the upload stream fails', async () => {
    await expect(storage.put(key, failingStream(64 * 1024), { contentType: 'video/mp4' })).rejects.toThrow(
      'client went away',
    );
    expect(await storage.head(key)).toBeNull();
    expect(await filesUnder(root)).toEqual([]);
  });

  it('keeps the previous version when a replacement upload fails', async () => {
    await storage.put(key, Readable.from([Buffer.from('original')]), { contentType: 'image/png' });
    await expect(storage.put(key, failingStream(1000), { contentType: 'image/png' })).rejects.toThrow();
    expect(await text((await storage.get(key)).body)).toBe('original');
  });

  it('refuses an upload whose length differs from the announced one', async () => {
    await expect(
      storage.put(key, Readable.from([Buffer.from('12345')]), { contentType: 'image/png', contentLength: 4 }),
    ).rejects.toBeInstanceOf(UploadSizeMismatchError);
    await expect(
      storage.put(key, Readable.from([Buffer.from('12345')]), { contentType: 'image/png', contentLength: 6 }),
    ).rejects.toBeInstanceOf(UploadSizeMismatchError);
    expect(await filesUnder(root)).toEqual([]);
    expect(
      (await storage.put(key, Readable.from([Buffer.from('12345')]), { contentType: 'image/png', contentLength: 5 }))
        .size,
    ).toBe(5);
  });

  it('refuses path traversal and its own bookkeeping paths in every operation', async () => {
    for (const bad of ['../escape.png', 'ws/../../escape.png', '/etc/passwd', '.meta/ws/x.json', '.tmp/abc']) {
      await expect(
        storage.put(bad, Readable.from([Buffer.from('x')]), { contentType: 'image/png' }),
      ).rejects.toBeInstanceOf(InvalidKeyError);
      await expect(storage.get(bad)).rejects.toBeInstanceOf(InvalidKeyError);
      await expect(storage.head(bad)).rejects.toBeInstanceOf(InvalidKeyError);
      await expect(storage.delete(bad)).rejects.toBeInstanceOf(InvalidKeyError);
    }
    expect(await filesUnder(root)).toEqual([]);
  });

  it('derives the content type from the name when the sidecar is missing', async () => {
    await storage.put(key, Readable.from([Buffer.from('x')]), { contentType: 'image/png' });
    await rm(join(root, '.meta'), { recursive: true });
    expect((await storage.head(key))?.contentType).toBe('image/png');
  });

  it('builds public URLs under the configured base', () => {
    expect(storage.publicUrl(key)).toBe(`https://herald.example/media/${key}`);
  });
});

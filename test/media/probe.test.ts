import { mkdtemp, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { crc32 } from 'node:zlib';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bufferReader,
  MediaProbeError,
  openFileReader,
  probeContainer,
  probeFile,
  probeImage,
  probeVideo,
} from '../../src/media/probe.ts';
import { sniffBuffer, sniffFile, UnsupportedMediaError } from '../../src/media/sniff.ts';
import { writeAvi, writeMkv, writeMp4 } from './helpers/video-fixtures.ts';

let dir: string;
const builtin = { ffprobePath: false } as const;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-probe-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } });

/** Pixels that do not compress away, so a cut lands in the middle of the image data. */
function noise(width: number, height: number) {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (Math.imul(i, 2654435761) >>> 24) & 0xff;
  return sharp(raw, { raw: { width, height, channels: 3 } });
}

/** The PNG with its signature and IHDR intact and one IDAT of 8 bytes (valid CRC), then IEND. */
function pngWithShortIdat(png: Buffer): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const idat = png.indexOf('IDAT', 8, 'latin1');
  return Buffer.concat([
    png.subarray(0, idat - 4),
    chunk('IDAT', png.subarray(idat + 4, idat + 12)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('sniff', () => {
  it.each([
    ['jpeg', () => solid(30, 20).jpeg().toBuffer(), 'image/jpeg'],
    ['png', () => solid(30, 20).png().toBuffer(), 'image/png'],
    ['gif', () => solid(30, 20).gif().toBuffer(), 'image/gif'],
    ['webp', () => solid(30, 20).webp().toBuffer(), 'image/webp'],
  ] as const)('detects %s from bytes', async (format, make, mime) => {
    const type = await sniffBuffer(await make());
    expect(type).toMatchObject({ kind: 'image', format, mime });
  });

  it.each([
    ['mp4', (p: string) => writeMp4(p), 'video/mp4'],
    ['mov', (p: string) => writeMp4(p, { brand: 'qt  ' }), 'video/quicktime'],
    ['m4v', (p: string) => writeMp4(p, { brand: 'M4V ' }), 'video/x-m4v'],
    ['webm', (p: string) => writeMkv(p), 'video/webm'],
    ['mkv', (p: string) => writeMkv(p, { docType: 'matroska' }), 'video/matroska'],
    ['avi', (p: string) => writeAvi(p), 'video/vnd.avi'],
  ] as const)('detects %s from bytes', async (format, write, mime) => {
    const path = join(dir, `sniff.${format}`);
    await write(path);
    expect(await sniffFile(path)).toMatchObject({ kind: 'video', format, mime });
  });

  it('refuses formats Herald does not accept, whatever the name says', async () => {
    const tiff = await solid(10, 10).tiff().toBuffer();
    await expect(sniffBuffer(tiff)).rejects.toMatchObject({
      name: 'UnsupportedMediaError',
      detectedMime: 'image/tiff',
    });
    await expect(sniffBuffer(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).rejects.toBeInstanceOf(
      UnsupportedMediaError,
    );
    await expect(sniffBuffer(Buffer.from('just text, named cat.jpg'))).rejects.toBeInstanceOf(UnsupportedMediaError);
  });
});

describe('probeImage', () => {
  it('reads format and size', async () => {
    const info = await probeImage(await solid(320, 240).jpeg().toBuffer());
    expect(info).toEqual({
      kind: 'image',
      format: 'jpeg',
      mime: 'image/jpeg',
      width: 320,
      height: 240,
      displayWidth: 320,
      displayHeight: 240,
      frames: 1,
      animated: false,
    });
  });

  it('reports display size after EXIF orientation', async () => {
    const path = join(dir, 'rotated.jpg');
    await writeFile(path, await solid(400, 100).jpeg().withMetadata({ orientation: 6 }).toBuffer());
    expect(await probeImage(path)).toMatchObject({ width: 400, height: 100, displayWidth: 100, displayHeight: 400 });
  });

  it('counts animation frames', async () => {
    const frames = await Promise.all([solid(40, 30).png().toBuffer(), solid(40, 30).negate().png().toBuffer()]);
    const gif = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    expect(await probeImage(gif)).toMatchObject({ format: 'gif', width: 40, height: 30, frames: 2, animated: true });
  });

  it('refuses an image over the pixel limit before decoding it', async () => {
    const big = await solid(2000, 2000).png().toBuffer();
    await expect(probeImage(big, { maxImagePixels: 1_000_000 })).rejects.toBeInstanceOf(MediaProbeError);
  });

  it('refuses a truncated image', async () => {
    const png = await solid(200, 200).png().toBuffer();
    await expect(probeImage(png.subarray(0, 60))).rejects.toBeInstanceOf(MediaProbeError);
  });

  it('refuses a JPEG cut short, even by only its end-of-image marker, by decoding it', async () => {
    const jpeg = await noise(300, 200).jpeg().toBuffer();
    expect(await probeImage(jpeg)).toMatchObject({ format: 'jpeg', width: 300, height: 200 });
    for (const cut of [jpeg.subarray(0, Math.floor(jpeg.length * 0.6)), jpeg.subarray(0, jpeg.length - 2)]) {
      await expect(probeImage(cut)).rejects.toThrow(/image data is incomplete or corrupt/);
    }
  });

  it('refuses a JPEG whose scan data is whole but whose end-of-image marker was cut off (libjpeg does not notice)', async () => {
    // This picture's last scan ends so that the decoder never reads past it: only the marker walk finds the cut.
    const jpeg = await noise(183, 64).jpeg().toBuffer();
    await expect(probeImage(jpeg.subarray(0, jpeg.length - 2))).rejects.toThrow(
      /the JPEG is truncated: it has no end-of-image marker/,
    );
    await expect(probeImage(jpeg.subarray(0, jpeg.length - 1))).rejects.toThrow(
      /the JPEG is truncated|incomplete or corrupt/,
    );
  });

  it('accepts a JPEG followed by other data (a motion photo appends its video after the end-of-image marker)', async () => {
    const jpeg = await noise(183, 64).jpeg({ progressive: true }).toBuffer();
    const trailer = Buffer.concat([
      Buffer.from([0, 0, 0, 0x18]),
      Buffer.from('ftypmp42'),
      Buffer.from([0xff, 0xd8, 0xff, 0xda, 0xff]),
    ]);
    expect(await probeImage(Buffer.concat([jpeg, trailer]))).toMatchObject({ format: 'jpeg', width: 183, height: 64 });
  });

  it('refuses a PNG whose header is whole but whose pixel data is short or cut off', async () => {
    const png = await noise(300, 200).png().toBuffer();
    await expect(probeImage(pngWithShortIdat(png))).rejects.toThrow(/image data is incomplete or corrupt/);
    await expect(probeImage(png.subarray(0, Math.floor(png.length * 0.6)))).rejects.toThrow(
      /image data is incomplete or corrupt/,
    );
  });

  it('refuses a video passed as an image', async () => {
    const path = join(dir, 'not-image.mp4');
    await writeMp4(path);
    await expect(probeImage(path)).rejects.toBeInstanceOf(UnsupportedMediaError);
  });
});

describe('built-in video probers', () => {
  it('reads an MP4 whose moov sits after 6 GB of media data, by seeking', async () => {
    const path = join(dir, 'long.mp4');
    await writeMp4(path, { mdatBytes: 6 * 1024 ** 3, width: 1920, height: 1080, durationSec: 5400 });
    expect((await stat(path)).size).toBeGreaterThan(6 * 1024 ** 3);
    // Seeking, not reading: the parser touches a few boxes' headers, not the 6 GB between them.
    const file = await openFileReader(path);
    let bytesRead = 0;
    try {
      const counting = {
        size: file.size,
        read: async (at: number, n: number) => {
          const b = await file.read(at, n);
          bytesRead += b.length;
          return b;
        },
      };
      expect((await probeContainer(counting, 'mp4')).durationSec).toBe(5400);
    } finally {
      await file.close();
    }
    expect(bytesRead).toBeLessThan(1024 * 1024);
    const info = await probeVideo(path, builtin);
    expect(info).toEqual({
      kind: 'video',
      format: 'mp4',
      mime: 'video/mp4',
      durationSec: 5400,
      width: 1920,
      height: 1080,
      rotation: 0,
      displayWidth: 1920,
      displayHeight: 1080,
      videoCodec: 'h264',
      audioCodec: 'aac',
      prober: 'builtin',
    });
  });

  it('reads a fast-start MOV with a rotation matrix', async () => {
    const path = join(dir, 'phone.mov');
    await writeMp4(path, {
      brand: 'qt  ',
      moovFirst: true,
      rotation: 90,
      width: 1920,
      height: 1080,
      durationSec: 3.5,
      audio: false,
    });
    expect(await probeVideo(path, builtin)).toMatchObject({
      format: 'mov',
      durationSec: 3.5,
      width: 1920,
      height: 1080,
      rotation: 90,
      displayWidth: 1080,
      displayHeight: 1920,
      videoCodec: 'h264',
      audioCodec: undefined,
    });
  });

  it('reads an M4V', async () => {
    const path = join(dir, 'clip.m4v');
    await writeMp4(path, { brand: 'M4V ', width: 640, height: 480, durationSec: 2 });
    expect(await probeVideo(path, builtin)).toMatchObject({ format: 'm4v', durationSec: 2, width: 640, height: 480 });
  });

  it('refuses an MP4 without a moov box (an unfinished recording)', async () => {
    const path = join(dir, 'cut.mp4');
    await writeMp4(path, { mdatBytes: 4096 });
    await truncate(path, 32 + 16 + 4096); // ftyp + mdat header + media data: the moov never got written
    await expect(probeVideo(path, builtin)).rejects.toBeInstanceOf(MediaProbeError);
  });

  it('refuses a fast-start MP4 whose media data was cut off (mdat shorter than it declares)', async () => {
    const path = join(dir, 'cut-data.mp4');
    await writeMp4(path, { moovFirst: true, mdatBytes: 8192 });
    expect(await probeVideo(path, builtin)).toMatchObject({ durationSec: 12.5 });
    await truncate(path, (await stat(path)).size - 1000);
    await expect(probeVideo(path, builtin)).rejects.toThrow(
      /truncated: its mdat box needs 8192 bytes of data but only 7192/,
    );
  });

  it('refuses an MP4 whose mdat runs "to the end" when its samples lie past the end of the file', async () => {
    const path = join(dir, 'cut-to-end.mp4');
    await writeMp4(path, { moovFirst: true, mdatBytes: 8192, mdatToEnd: true, sampleTable: true });
    expect(await probeVideo(path, builtin)).toMatchObject({ durationSec: 12.5 });
    const size = (await stat(path)).size;
    await truncate(path, size - 1);
    await expect(probeVideo(path, builtin)).rejects.toThrow(
      new RegExp(`truncated: a track's media data runs to byte ${size} but the file has ${size - 1} bytes`),
    );
  });

  it('reads WebM and Matroska, including Tracks found through the SeekHead', async () => {
    const webm = join(dir, 'a.webm');
    await writeMkv(webm, { width: 1280, height: 720, durationSec: 7.25 });
    expect(await probeVideo(webm, builtin)).toMatchObject({
      format: 'webm',
      durationSec: 7.25,
      width: 1280,
      height: 720,
      videoCodec: 'vp9',
      audioCodec: 'opus',
    });
    const mkv = join(dir, 'b.mkv');
    await writeMkv(mkv, {
      docType: 'matroska',
      videoCodec: 'V_MPEG4/ISO/AVC',
      audioCodec: 'A_AAC',
      tracksAtEnd: true,
      durationSec: 61,
    });
    expect(await probeVideo(mkv, builtin)).toMatchObject({
      format: 'mkv',
      durationSec: 61,
      width: 1280,
      videoCodec: 'h264',
      audioCodec: 'aac',
    });
  });

  it('reads AVI headers', async () => {
    const path = join(dir, 'c.avi');
    await writeAvi(path, { width: 320, height: 240, fps: 25, frames: 250 });
    expect(await probeVideo(path, builtin)).toMatchObject({
      format: 'avi',
      durationSec: 10,
      width: 320,
      height: 240,
      videoCodec: 'mpeg4',
      audioCodec: 'mp3',
    });
  });

  it('survives garbage without hanging or crashing', async () => {
    const junk = Buffer.alloc(4096, 0xff);
    for (const container of ['mp4', 'mkv', 'avi'] as const) {
      const result = await probeContainer(bufferReader(junk), container).catch((e: unknown) => e);
      expect(result).toBeInstanceOf(MediaProbeError);
    }
    // A box claiming a size smaller than its own header.
    const bad = Buffer.concat([Buffer.from([0, 0, 0, 4]), Buffer.from('ftyp'), Buffer.alloc(32)]);
    await expect(probeContainer(bufferReader(bad), 'mp4')).rejects.toBeInstanceOf(MediaProbeError);
  });

  it('falls back to the built-in parsers when the ffprobe binary is missing', async () => {
    const path = join(dir, 'fallback.mp4');
    await writeMp4(path);
    const info = await probeVideo(path, { ffprobePath: join(dir, 'no-such-ffprobe') });
    expect(info.prober).toBe('builtin');
    expect(info.durationSec).toBe(12.5);
  });

  it('probeFile dispatches on the sniffed kind', async () => {
    const img = join(dir, 'x.webp');
    await writeFile(img, await solid(12, 34).webp().toBuffer());
    expect(await probeFile(img, builtin)).toMatchObject({ kind: 'image', format: 'webp', width: 12, height: 34 });
    const vid = join(dir, 'y.webm');
    await writeMkv(vid);
    expect(await probeFile(vid, builtin)).toMatchObject({ kind: 'video', format: 'webm' });
  });
});

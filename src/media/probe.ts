// Reads the facts Herald needs about an image or video (dimensions, duration, codecs) from its bytes.
import type { Metadata } from 'sharp';
import { probeAvi } from './probe/avi.ts';
import { ffprobe } from './probe/ffprobe.ts';
import { probeIsoBmff } from './probe/isobmff.ts';
import { assertJpegComplete } from './probe/jpeg.ts';
import { assertIsoBmffComplete } from './probe/isobmff-complete.ts';
import { probeMatroska } from './probe/matroska.ts';
import {
  bufferReader,
  MediaProbeError,
  openFileReader,
  type ContainerInfo,
  type RandomAccessReader,
} from './probe/reader.ts';
import {
  sniffBuffer,
  sniffFile,
  UnsupportedMediaError,
  type ImageFormat,
  type MediaType,
  type VideoContainer,
} from './sniff.ts';

/** sharp (libvips, ~0.1 s and ~20 MB) is loaded by the first image probed, not at start-up (docs/performance.md). */
const sharpOf = async () => (await import('sharp')).default;

export {
  MediaProbeError,
  bufferReader,
  openFileReader,
  type ContainerInfo,
  type RandomAccessReader,
} from './probe/reader.ts';

export interface ImageInfo {
  kind: 'image';
  format: ImageFormat;
  mime: string;
  /** Stored pixel size; for animations, the size of one frame. */
  width: number;
  height: number;
  /** Size once the EXIF orientation is applied. */
  displayWidth: number;
  displayHeight: number;
  frames: number;
  animated: boolean;
}

export interface VideoInfo {
  kind: 'video';
  format: VideoContainer;
  mime: string;
  durationSec: number | undefined;
  /** Coded picture size, before rotation. */
  width: number | undefined;
  height: number | undefined;
  /** Clockwise degrees to turn the picture for display: 0, 90, 180 or 270. */
  rotation: number;
  displayWidth: number | undefined;
  displayHeight: number | undefined;
  videoCodec: string | undefined;
  audioCodec: string | undefined;
  /** Which prober produced the facts. */
  prober: 'ffprobe' | 'builtin';
}

export type MediaInfo = ImageInfo | VideoInfo;

export interface ProbeOptions {
  /** ffprobe binary to prefer, or false to use only the built-in parsers. Default "ffprobe" (looked up on PATH). */
  ffprobePath?: string | false;
  ffprobeTimeoutMs?: number;
  /** Images with more pixels than this are refused before decoding. Default 100 million. */
  maxImagePixels?: number;
}

const IMAGE_FORMATS: readonly string[] = ['jpeg', 'png', 'gif', 'webp'];

/** Side of the thumbnail a full decode renders to: libvips streams the image through it, so memory stays small. */
const DECODE_CHECK_SIZE = 64;

export async function probeImage(input: string | Uint8Array, opts: ProbeOptions = {}): Promise<ImageInfo> {
  return imageFacts(input, typeof input === 'string' ? await sniffFile(input) : await sniffBuffer(input), opts);
}

async function imageFacts(input: string | Uint8Array, type: MediaType, opts: ProbeOptions): Promise<ImageInfo> {
  if (type.kind !== 'image') throw new UnsupportedMediaError(type.mime);
  let meta: Metadata;
  const source = typeof input === 'string' ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const options = { limitInputPixels: opts.maxImagePixels ?? 100_000_000, failOn: 'error' } as const;
  try {
    meta = await (await sharpOf())(source, options).metadata();
  } catch (cause) {
    throw new MediaProbeError(`unreadable image: ${(cause as Error).message}`, { cause });
  }
  try {
    // The header alone says nothing of the pixels: a JPEG cut short or a PNG without its image data
    // passes metadata(). Decoding them (within the pixel limit) finds it. Only the first frame: an
    // animated GIF or WebP cut short already fails metadata(), which reads every frame's header.
    await (await sharpOf())(source, options)
      .resize(DECODE_CHECK_SIZE, DECODE_CHECK_SIZE, { fit: 'inside' })
      .raw()
      .toBuffer();
  } catch (cause) {
    const why = (cause as Error).message.split('\n')[0] ?? '';
    if (/pixel limit/i.test(why))
      throw new MediaProbeError(`the image has more than ${options.limitInputPixels} pixels`, { cause });
    throw new MediaProbeError(`the image data is incomplete or corrupt (${why})`, { cause });
  }
  if (type.format === 'jpeg') {
    // Said the way the decoder's refusal is: which of the two notices a cut depends on where it falls.
    await withReader(input, assertJpegComplete).catch((cause: unknown) => {
      throw new MediaProbeError(`the image data is incomplete or corrupt (${(cause as Error).message})`, { cause });
    });
  }
  if (!IMAGE_FORMATS.includes(meta.format) || meta.format !== type.format) {
    throw new MediaProbeError(`image decoder saw ${meta.format}, but the bytes look like ${type.format}`);
  }
  const frames = meta.pages ?? 1;
  const height = meta.pageHeight ?? meta.height;
  const turned = (meta.orientation ?? 1) >= 5;
  return {
    kind: 'image',
    format: type.format,
    mime: type.mime,
    width: meta.width,
    height,
    displayWidth: turned ? height : meta.width,
    displayHeight: turned ? meta.width : height,
    frames,
    animated: frames > 1,
  };
}

/** The built-in parsers, for when ffprobe is not installed. */
export async function probeContainer(reader: RandomAccessReader, container: VideoContainer): Promise<ContainerInfo> {
  switch (container) {
    case 'mp4':
    case 'mov':
    case 'm4v':
      return probeIsoBmff(reader);
    case 'mkv':
    case 'webm':
      return probeMatroska(reader);
    case 'avi':
      return probeAvi(reader);
  }
}

export async function probeVideo(path: string, opts: ProbeOptions = {}): Promise<VideoInfo> {
  return videoFacts(path, await sniffFile(path), opts);
}

async function withReader(
  input: string | Uint8Array,
  check: (reader: RandomAccessReader) => Promise<void>,
): Promise<void> {
  if (typeof input !== 'string') return check(bufferReader(input));
  const reader = await openFileReader(input);
  try {
    await check(reader);
  } finally {
    await reader.close();
  }
}

/** Whether the container holds all the media data it declares; ffprobe reads a cut-off MP4 without complaint. */
async function assertComplete(path: string, container: VideoContainer): Promise<void> {
  if (container === 'mp4' || container === 'mov' || container === 'm4v') await withReader(path, assertIsoBmffComplete);
}

async function videoFacts(path: string, type: MediaType, opts: ProbeOptions): Promise<VideoInfo> {
  if (type.kind !== 'video') throw new UnsupportedMediaError(type.mime);
  await assertComplete(path, type.format);
  let prober: VideoInfo['prober'] = 'ffprobe';
  let info =
    opts.ffprobePath === false
      ? null
      : await ffprobe(opts.ffprobePath ?? 'ffprobe', path, opts.ffprobeTimeoutMs ?? 30_000);
  if (!info) {
    prober = 'builtin';
    const reader = await openFileReader(path);
    try {
      info = await probeContainer(reader, type.format);
    } finally {
      await reader.close();
    }
  }
  const rotation = info.rotation ?? 0;
  const sideways = rotation === 90 || rotation === 270;
  return {
    kind: 'video',
    format: type.format,
    mime: type.mime,
    durationSec: info.durationSec,
    width: info.width,
    height: info.height,
    rotation,
    displayWidth: sideways ? info.height : info.width,
    displayHeight: sideways ? info.width : info.height,
    videoCodec: info.videoCodec,
    audioCodec: info.audioCodec,
    prober,
  };
}

/** Sniffs a file and probes it as whichever kind it turns out to be. */
export async function probeFile(path: string, opts: ProbeOptions = {}): Promise<MediaInfo> {
  const type = await sniffFile(path);
  return type.kind === 'image' ? imageFacts(path, type, opts) : videoFacts(path, type, opts);
}

// Reads duration, dimensions and codecs from ISO-BMFF files (MP4, M4V, QuickTime MOV).
// Only box headers and the few small boxes we need are read, so a moov after gigabytes of mdat costs a seek.
import { MediaProbeError, type ContainerInfo, type RandomAccessReader } from './reader.ts';

export interface Box {
  type: string;
  payload: number;
  end: number;
  /** Where the box says it ends; past `end` when the file was cut short. */
  declaredEnd: number;
}

interface Track {
  handler?: string;
  timescale?: number;
  duration?: number;
  rotation?: number;
  displayWidth?: number;
  displayHeight?: number;
  codec?: string;
  width?: number;
  height?: number;
}

const MAX_BOXES = 100_000;
const MAX_PAYLOAD = 1 << 20;

export async function* boxes(reader: RandomAccessReader, start: number, end: number): AsyncGenerator<Box> {
  let pos = start;
  for (let count = 0; pos + 8 <= end; count++) {
    if (count > MAX_BOXES) throw new MediaProbeError('too many boxes');
    const head = await reader.read(pos, 16);
    if (head.length < 8) return;
    let size = head.readUInt32BE(0);
    const type = head.toString('latin1', 4, 8);
    let headerSize = 8;
    if (size === 1) {
      if (head.length < 16) return;
      const large = head.readBigUInt64BE(8);
      if (large > BigInt(Number.MAX_SAFE_INTEGER)) throw new MediaProbeError(`box ${type} is impossibly large`);
      size = Number(large);
      headerSize = 16;
    } else if (size === 0) {
      size = end - pos;
    }
    if (size < headerSize) throw new MediaProbeError(`box ${JSON.stringify(type)} has a bad size`);
    // A box running past its parent means a truncated file: still report it, clipped, so a moov can be read.
    const boxEnd = Math.min(pos + size, end);
    yield { type, payload: pos + headerSize, end: boxEnd, declaredEnd: pos + size };
    pos = boxEnd;
  }
}

export async function payloadOf(reader: RandomAccessReader, box: Box, max = MAX_PAYLOAD): Promise<Buffer> {
  return reader.read(box.payload, Math.min(box.end - box.payload, max));
}

export async function findChild(reader: RandomAccessReader, parent: Box, type: string): Promise<Box | undefined> {
  for await (const box of boxes(reader, parent.payload, parent.end)) if (box.type === type) return box;
  return undefined;
}

const VIDEO_CODECS: Readonly<Record<string, string>> = {
  avc1: 'h264',
  avc2: 'h264',
  avc3: 'h264',
  avc4: 'h264',
  hvc1: 'hevc',
  hev1: 'hevc',
  dvh1: 'hevc',
  dvhe: 'hevc',
  av01: 'av1',
  vp08: 'vp8',
  vp09: 'vp9',
  mp4v: 'mpeg4',
  s263: 'h263',
  h263: 'h263',
  apch: 'prores',
  apcn: 'prores',
  apcs: 'prores',
  apco: 'prores',
  ap4h: 'prores',
  ap4x: 'prores',
  jpeg: 'mjpeg',
  mjpa: 'mjpeg',
  mjpb: 'mjpeg',
};

const AUDIO_CODECS: Readonly<Record<string, string>> = {
  'ac-3': 'ac3',
  'ec-3': 'eac3',
  Opus: 'opus',
  fLaC: 'flac',
  '.mp3': 'mp3',
  alac: 'alac',
  samr: 'amr_nb',
  sawb: 'amr_wb',
  sowt: 'pcm_s16le',
  twos: 'pcm_s16be',
  lpcm: 'pcm',
  ulaw: 'pcm_mulaw',
  alaw: 'pcm_alaw',
};

// MPEG-4 objectTypeIndication values seen in esds boxes.
const OBJECT_TYPES: Readonly<Record<number, string>> = {
  64: 'aac',
  102: 'aac',
  103: 'aac',
  104: 'aac',
  105: 'mp3',
  107: 'mp3',
  165: 'ac3',
  166: 'eac3',
  173: 'opus',
};

function descriptorLength(data: Buffer, at: number): [length: number, next: number] {
  let length = 0;
  let pos = at;
  for (let i = 0; i < 4 && pos < data.length; i++) {
    const byte = data[pos++] ?? 0;
    length = (length << 7) | (byte & 0x7f);
    if (!(byte & 0x80)) break;
  }
  return [length, pos];
}

/** mp4a covers several codecs; the esds decoder config says which. */
function mp4aCodec(entry: Buffer): string {
  const at = entry.indexOf('esds', 8, 'latin1');
  if (at < 0) return 'mp4a';
  let pos = at + 8; // fourcc + version/flags
  if (entry[pos] !== 0x03) return 'mp4a';
  [, pos] = descriptorLength(entry, pos + 1);
  const flags = entry[pos + 2] ?? 0;
  pos += 3;
  if (flags & 0x80) pos += 2;
  if (flags & 0x40) pos += 1 + (entry[pos] ?? 0);
  if (flags & 0x20) pos += 2;
  if (entry[pos] !== 0x04) return 'mp4a';
  [, pos] = descriptorLength(entry, pos + 1);
  return OBJECT_TYPES[entry[pos] ?? -1] ?? 'mp4a';
}

function readStsd(data: Buffer, track: Track): void {
  if (data.length < 16) return;
  const entrySize = data.readUInt32BE(8);
  const fourcc = data.toString('latin1', 12, 16);
  const entry = data.subarray(8, 8 + Math.max(16, Math.min(entrySize, data.length - 8)));
  if (track.handler === 'vide') {
    track.codec = VIDEO_CODECS[fourcc] ?? fourcc.trim();
    if (entry.length >= 36) {
      track.width = entry.readUInt16BE(32);
      track.height = entry.readUInt16BE(34);
    }
  } else if (track.handler === 'soun') {
    track.codec = fourcc === 'mp4a' ? mp4aCodec(entry) : (AUDIO_CODECS[fourcc] ?? fourcc.trim());
  }
}

function readTkhd(data: Buffer, track: Track): void {
  const matrixAt = data[0] === 1 ? 52 : 40;
  if (data.length < matrixAt + 44) return;
  const a = data.readInt32BE(matrixAt) / 65536;
  const b = data.readInt32BE(matrixAt + 4) / 65536;
  const degrees = Math.round((Math.atan2(b, a) * 180) / Math.PI / 90) * 90;
  track.rotation = ((degrees % 360) + 360) % 360;
  track.displayWidth = Math.round(data.readUInt32BE(matrixAt + 36) / 65536);
  track.displayHeight = Math.round(data.readUInt32BE(matrixAt + 40) / 65536);
}

function readMdhd(data: Buffer, track: Track): void {
  if (data[0] === 1 && data.length >= 32) {
    track.timescale = data.readUInt32BE(20);
    track.duration = Number(data.readBigUInt64BE(24));
  } else if (data.length >= 20) {
    track.timescale = data.readUInt32BE(12);
    track.duration = data.readUInt32BE(16);
  }
}

async function readTrak(reader: RandomAccessReader, trak: Box): Promise<Track> {
  const track: Track = {};
  const tkhd = await findChild(reader, trak, 'tkhd');
  if (tkhd) readTkhd(await payloadOf(reader, tkhd, 128), track);
  const mdia = await findChild(reader, trak, 'mdia');
  if (!mdia) return track;
  let stbl: Box | undefined;
  for await (const box of boxes(reader, mdia.payload, mdia.end)) {
    if (box.type === 'mdhd') readMdhd(await payloadOf(reader, box, 64), track);
    else if (box.type === 'hdlr') track.handler = (await payloadOf(reader, box, 16)).toString('latin1', 8, 12);
    else if (box.type === 'minf') stbl = await findChild(reader, box, 'stbl');
  }
  const stsd = stbl && (await findChild(reader, stbl, 'stsd'));
  if (stsd) readStsd(await payloadOf(reader, stsd, 64 * 1024), track);
  return track;
}

/** Duration fields set to all ones mean "unknown". */
function knownDuration(value: number | bigint, timescale: number | undefined, allOnes: bigint): number | undefined {
  if (!timescale || BigInt(value) === allOnes || BigInt(value) === 0n) return undefined;
  return Number(value) / timescale;
}

export async function probeIsoBmff(reader: RandomAccessReader): Promise<ContainerInfo> {
  let moov: Box | undefined;
  for await (const box of boxes(reader, 0, reader.size)) {
    if (box.type === 'moov') {
      moov = box;
      break;
    }
  }
  if (!moov) throw new MediaProbeError('no moov box: the file is incomplete or not a playable MP4/MOV');
  let movieTimescale: number | undefined;
  let movieDuration: number | undefined;
  let fragmentDuration: number | undefined;
  const tracks: Track[] = [];
  for await (const box of boxes(reader, moov.payload, moov.end)) {
    if (box.type === 'cmov') throw new MediaProbeError('compressed QuickTime movie headers are not supported');
    if (box.type === 'mvhd') {
      const data = await payloadOf(reader, box, 64);
      const v1 = data[0] === 1;
      if (data.length < (v1 ? 32 : 20)) throw new MediaProbeError('truncated mvhd box');
      movieTimescale = data.readUInt32BE(v1 ? 20 : 12);
      movieDuration = knownDuration(
        v1 ? data.readBigUInt64BE(24) : data.readUInt32BE(16),
        movieTimescale,
        v1 ? 2n ** 64n - 1n : 0xffffffffn,
      );
    } else if (box.type === 'trak') {
      tracks.push(await readTrak(reader, box));
    } else if (box.type === 'mvex') {
      const mehd = await findChild(reader, box, 'mehd');
      if (mehd) {
        const data = await payloadOf(reader, mehd, 16);
        const value =
          data[0] === 1 && data.length >= 12 ? data.readBigUInt64BE(4) : data.length >= 8 ? data.readUInt32BE(4) : 0;
        fragmentDuration = knownDuration(value, movieTimescale, 0xffffffffn);
      }
    }
  }
  const video = tracks.find((t) => t.handler === 'vide');
  const audio = tracks.find((t) => t.handler === 'soun');
  const trackDurations = tracks
    .map((t) => (t.duration !== undefined ? knownDuration(t.duration, t.timescale, 0xffffffffn) : undefined))
    .filter((d): d is number => d !== undefined);
  const info: ContainerInfo = {};
  const duration =
    movieDuration ?? fragmentDuration ?? (trackDurations.length ? Math.max(...trackDurations) : undefined);
  if (duration !== undefined) info.durationSec = duration;
  if (video) {
    const width = video.width || video.displayWidth;
    const height = video.height || video.displayHeight;
    if (width) info.width = width;
    if (height) info.height = height;
    info.rotation = video.rotation ?? 0;
    if (video.codec) info.videoCodec = video.codec;
  }
  if (audio?.codec) info.audioCodec = audio.codec;
  return info;
}

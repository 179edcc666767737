// Reads duration, dimensions and codecs from Matroska and WebM files (EBML).
import { MediaProbeError, type ContainerInfo, type RandomAccessReader } from './reader.ts';

const ID = {
  EBML: 0x1a45dfa3,
  Segment: 0x18538067,
  SeekHead: 0x114d9b74,
  Seek: 0x4dbb,
  SeekID: 0x53ab,
  SeekPosition: 0x53ac,
  Info: 0x1549a966,
  TimestampScale: 0x2ad7b1,
  Duration: 0x4489,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  TrackType: 0x83,
  CodecID: 0x86,
  Video: 0xe0,
  PixelWidth: 0xb0,
  PixelHeight: 0xba,
  Cluster: 0x1f43b675,
} as const;

const MAX_MASTER_BYTES = 4 << 20;
const MAX_ELEMENTS = 100_000;

interface Element {
  id: number;
  dataStart: number;
  /** undefined for the "unknown size" of live streams. */
  size: number | undefined;
}

function vintWidth(first: number): number {
  for (let i = 0; i < 8; i++) if (first & (0x80 >> i)) return i + 1;
  return 0;
}

function parseHeader(buf: Buffer, at: number): (Element & { headerEnd: number }) | null {
  const idWidth = vintWidth(buf[at] ?? 0);
  if (idWidth === 0 || idWidth > 4 || at + idWidth >= buf.length) return null;
  let id = 0;
  for (let i = 0; i < idWidth; i++) id = id * 256 + (buf[at + i] ?? 0);
  const sizeAt = at + idWidth;
  const sizeWidth = vintWidth(buf[sizeAt] ?? 0);
  if (sizeWidth === 0 || sizeAt + sizeWidth > buf.length) return null;
  let size = (buf[sizeAt] ?? 0) & (0xff >> sizeWidth);
  let allOnes = size === 0xff >> sizeWidth;
  for (let i = 1; i < sizeWidth; i++) {
    const byte = buf[sizeAt + i] ?? 0;
    size = size * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  const headerEnd = sizeAt + sizeWidth;
  return { id, dataStart: headerEnd, size: allOnes ? undefined : size, headerEnd };
}

async function readHeader(reader: RandomAccessReader, pos: number): Promise<Element | null> {
  const head = await reader.read(pos, 12);
  const parsed = parseHeader(head, 0);
  return parsed && { id: parsed.id, dataStart: pos + parsed.dataStart, size: parsed.size };
}

/** The children of an in-memory master element; stops at anything malformed or of unknown size. */
function* children(buf: Buffer): Generator<{ id: number; data: Buffer }> {
  let pos = 0;
  for (let n = 0; pos < buf.length && n < MAX_ELEMENTS; n++) {
    const el = parseHeader(buf, pos);
    if (!el || el.size === undefined) return;
    const end = Math.min(el.dataStart + el.size, buf.length);
    yield { id: el.id, data: buf.subarray(el.dataStart, end) };
    pos = end;
  }
}

function readUint(data: Buffer): number {
  let value = 0;
  for (const byte of data.subarray(0, 8)) value = value * 256 + byte;
  return value;
}

function readFloat(data: Buffer): number | undefined {
  if (data.length === 4) return data.readFloatBE(0);
  if (data.length === 8) return data.readDoubleBE(0);
  return undefined;
}

const CODECS: readonly [prefix: string, name: string][] = [
  ['V_MPEG4/ISO/AVC', 'h264'],
  ['V_MPEGH/ISO/HEVC', 'hevc'],
  ['V_VP8', 'vp8'],
  ['V_VP9', 'vp9'],
  ['V_AV1', 'av1'],
  ['V_MPEG4/', 'mpeg4'],
  ['V_MJPEG', 'mjpeg'],
  ['V_THEORA', 'theora'],
  ['V_MPEG2', 'mpeg2video'],
  ['A_OPUS', 'opus'],
  ['A_VORBIS', 'vorbis'],
  ['A_AAC', 'aac'],
  ['A_MPEG/L3', 'mp3'],
  ['A_MPEG/L2', 'mp2'],
  ['A_AC3', 'ac3'],
  ['A_EAC3', 'eac3'],
  ['A_FLAC', 'flac'],
  ['A_DTS', 'dts'],
  ['A_PCM', 'pcm'],
];

function codecName(codecId: string): string {
  return CODECS.find(([prefix]) => codecId.startsWith(prefix))?.[1] ?? codecId;
}

function readInfo(data: Buffer, info: ContainerInfo): void {
  let scale = 1_000_000;
  let duration: number | undefined;
  for (const el of children(data)) {
    if (el.id === ID.TimestampScale) scale = readUint(el.data) || scale;
    else if (el.id === ID.Duration) duration = readFloat(el.data);
  }
  if (duration !== undefined && Number.isFinite(duration) && duration > 0) info.durationSec = (duration * scale) / 1e9;
}

function readTracks(data: Buffer, info: ContainerInfo): void {
  for (const entry of children(data)) {
    if (entry.id !== ID.TrackEntry) continue;
    let type = 0;
    let codec = '';
    let width: number | undefined;
    let height: number | undefined;
    for (const el of children(entry.data)) {
      if (el.id === ID.TrackType) type = readUint(el.data);
      else if (el.id === ID.CodecID) codec = el.data.toString('latin1').replace(/\0+$/, '');
      else if (el.id === ID.Video) {
        for (const v of children(el.data)) {
          if (v.id === ID.PixelWidth) width = readUint(v.data);
          else if (v.id === ID.PixelHeight) height = readUint(v.data);
        }
      }
    }
    if (type === 1 && info.videoCodec === undefined) {
      info.videoCodec = codecName(codec);
      if (width) info.width = width;
      if (height) info.height = height;
      info.rotation = 0;
    } else if (type === 2 && info.audioCodec === undefined) {
      info.audioCodec = codecName(codec);
    }
  }
}

async function readMaster(reader: RandomAccessReader, el: Element): Promise<Buffer> {
  return reader.read(el.dataStart, Math.min(el.size ?? MAX_MASTER_BYTES, MAX_MASTER_BYTES));
}

export async function probeMatroska(reader: RandomAccessReader): Promise<ContainerInfo> {
  const ebml = await readHeader(reader, 0);
  if (!ebml || ebml.id !== ID.EBML || ebml.size === undefined) throw new MediaProbeError('not an EBML file');
  let pos = ebml.dataStart + ebml.size;
  let segment: Element | null = null;
  while (pos < reader.size && !segment) {
    const el = await readHeader(reader, pos);
    if (!el) break;
    if (el.id === ID.Segment) segment = el;
    else if (el.size === undefined) break;
    else pos = el.dataStart + el.size;
  }
  if (!segment) throw new MediaProbeError('no Matroska segment');
  const segmentStart = segment.dataStart;
  const segmentEnd = segment.size === undefined ? reader.size : Math.min(reader.size, segmentStart + segment.size);
  const info: ContainerInfo = {};
  let haveInfo = false;
  let haveTracks = false;
  const seeks = new Map<number, number>();
  pos = segmentStart;
  for (let n = 0; pos < segmentEnd && !(haveInfo && haveTracks) && n < MAX_ELEMENTS; n++) {
    const el = await readHeader(reader, pos);
    if (!el) break;
    if (el.id === ID.Info) {
      readInfo(await readMaster(reader, el), info);
      haveInfo = true;
    } else if (el.id === ID.Tracks) {
      readTracks(await readMaster(reader, el), info);
      haveTracks = true;
    } else if (el.id === ID.SeekHead) {
      for (const seek of children(await readMaster(reader, el))) {
        if (seek.id !== ID.Seek) continue;
        let target = 0;
        let offset: number | undefined;
        for (const f of children(seek.data)) {
          if (f.id === ID.SeekID) target = readUint(f.data);
          else if (f.id === ID.SeekPosition) offset = readUint(f.data);
        }
        if (offset !== undefined && !seeks.has(target)) seeks.set(target, offset);
      }
    } else if (el.id === ID.Cluster && seeks.size > 0) {
      break; // media data: anything still missing is found through the seek head instead of walking clusters
    }
    if (el.size === undefined) break;
    pos = el.dataStart + el.size;
  }
  for (const [id, read] of [
    [ID.Info, readInfo],
    [ID.Tracks, readTracks],
  ] as const) {
    const done = id === ID.Info ? haveInfo : haveTracks;
    const offset = seeks.get(id);
    if (done || offset === undefined) continue;
    const el = await readHeader(reader, segmentStart + offset);
    if (el?.id === id) read(await readMaster(reader, el), info);
  }
  return info;
}

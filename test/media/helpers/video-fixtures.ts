// Writes small but structurally valid video containers, so probe tests run without ffmpeg.
import { open, writeFile } from 'node:fs/promises';

const u8 = (n: number): Buffer => Buffer.from([n & 0xff]);
const u16 = (n: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const i32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const zeros = (n: number): Buffer => Buffer.alloc(n);
const le16 = (n: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const le32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};

function box(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([u32(8 + body.length), Buffer.from(type, 'latin1'), body]);
}

function fullBox(type: string, version: number, ...parts: Buffer[]): Buffer {
  return box(type, u8(version), zeros(3), ...parts);
}

function matrix(rotation: number): Buffer {
  const [a, b, c, d] =
    rotation === 90
      ? [0, 1, -1, 0]
      : rotation === 180
        ? [-1, 0, 0, -1]
        : rotation === 270
          ? [0, -1, 1, 0]
          : [1, 0, 0, 1];
  return Buffer.concat([
    i32(a * 65536),
    i32(b * 65536),
    i32(0),
    i32(c * 65536),
    i32(d * 65536),
    i32(0),
    i32(0),
    i32(0),
    i32(0x40000000),
  ]);
}

export interface Mp4Options {
  brand?: 'isom' | 'qt  ' | 'M4V ';
  width?: number;
  height?: number;
  durationSec?: number;
  rotation?: 0 | 90 | 180 | 270;
  /** Size of the media data placed before the moov box; written sparse, so gigabytes cost no disk. */
  mdatBytes?: number;
  /** Put moov before mdat ("fast start") instead of at the end. */
  moovFirst?: boolean;
  audio?: boolean;
  /** Give the video track sample tables: one chunk of 8 equal samples filling the media data. */
  sampleTable?: boolean;
  /** Write the mdat with size 0 ("runs to the end of the file"), as some recorders do. */
  mdatToEnd?: boolean;
}

/** stsc, stsz and stco of one chunk of 8 samples at `dataOffset`, or the empty tables of a header-only file. */
function sampleTables(o: Required<Mp4Options>, dataOffset: number): Buffer[] {
  if (!o.sampleTable) return [fullBox('stsz', 0, u32(0), u32(0))];
  return [
    fullBox('stsc', 0, u32(1), u32(1), u32(8), u32(1)),
    fullBox('stsz', 0, u32(o.mdatBytes / 8), u32(8)),
    fullBox('stco', 0, u32(1), u32(dataOffset)),
  ];
}

function moov(o: Required<Mp4Options>, dataOffset = 0): Buffer {
  const timescale = 1000;
  const duration = Math.round(o.durationSec * timescale);
  const mvhd = fullBox(
    'mvhd',
    0,
    u32(0),
    u32(0),
    u32(timescale),
    u32(duration),
    u32(0x10000),
    u16(0x100),
    zeros(10),
    matrix(0),
    zeros(24),
    u32(3),
  );
  const avcC = box('avcC', Buffer.from([1, 0x42, 0xc0, 0x1e, 0xff, 0xe0, 0x00]));
  const avc1 = box(
    'avc1',
    zeros(6),
    u16(1),
    zeros(16),
    u16(o.width),
    u16(o.height),
    u32(0x480000),
    u32(0x480000),
    zeros(4),
    u16(1),
    zeros(32),
    u16(0x18),
    u16(0xffff),
    avcC,
  );
  const videoTrak = box(
    'trak',
    fullBox(
      'tkhd',
      0,
      u32(0),
      u32(0),
      u32(1),
      zeros(4),
      u32(duration),
      zeros(8),
      zeros(8),
      matrix(o.rotation),
      u32(o.width * 65536),
      u32(o.height * 65536),
    ),
    box(
      'mdia',
      fullBox('mdhd', 0, u32(0), u32(0), u32(90000), u32(Math.round(o.durationSec * 90000)), u16(0x55c4), u16(0)),
      fullBox('hdlr', 0, zeros(4), Buffer.from('vide'), zeros(12), Buffer.from('VideoHandler\0')),
      box(
        'minf',
        box('stbl', fullBox('stsd', 0, u32(1), avc1), fullBox('stts', 0, u32(0)), ...sampleTables(o, dataOffset)),
      ),
    ),
  );
  const esds = fullBox(
    'esds',
    0,
    Buffer.from([0x03, 0x19]),
    u16(2),
    u8(0),
    Buffer.from([0x04, 0x11, 0x40, 0x15]),
    zeros(3),
    u32(128000),
    u32(128000),
    Buffer.from([0x05, 0x02, 0x12, 0x10]),
    Buffer.from([0x06, 0x01, 0x02]),
  );
  const mp4a = box('mp4a', zeros(6), u16(1), zeros(8), u16(2), u16(16), zeros(4), u32(44100 * 65536), esds);
  const audioTrak = box(
    'trak',
    fullBox(
      'tkhd',
      0,
      u32(0),
      u32(0),
      u32(2),
      zeros(4),
      u32(duration),
      zeros(8),
      zeros(4),
      u16(0x100),
      zeros(2),
      matrix(0),
      u32(0),
      u32(0),
    ),
    box(
      'mdia',
      fullBox('mdhd', 0, u32(0), u32(0), u32(44100), u32(Math.round(o.durationSec * 44100)), u16(0x55c4), u16(0)),
      fullBox('hdlr', 0, zeros(4), Buffer.from('soun'), zeros(12), Buffer.from('SoundHandler\0')),
      box('minf', box('stbl', fullBox('stsd', 0, u32(1), mp4a))),
    ),
  );
  return box('moov', mvhd, videoTrak, ...(o.audio ? [audioTrak] : []));
}

export async function writeMp4(path: string, options: Mp4Options = {}): Promise<void> {
  const o: Required<Mp4Options> = {
    brand: 'isom',
    width: 640,
    height: 360,
    durationSec: 12.5,
    rotation: 0,
    mdatBytes: 1024,
    moovFirst: false,
    audio: true,
    sampleTable: false,
    mdatToEnd: false,
    ...options,
  };
  const ftyp = box(
    'ftyp',
    Buffer.from(o.brand, 'latin1'),
    u32(0x200),
    Buffer.from(o.brand === 'qt  ' ? 'qt  ' : 'isomiso2avc1mp41', 'latin1'),
  );
  // A 64-bit size lets the media data exceed 4 GiB, as real long recordings do.
  const mdatHeader = o.mdatToEnd
    ? Buffer.concat([u32(0), Buffer.from('mdat')])
    : Buffer.concat([u32(1), Buffer.from('mdat'), Buffer.from(bigU64(16 + o.mdatBytes))]);
  // The sample offsets are fixed-width fields: the moov's size does not depend on them.
  const movie = moov(o, ftyp.length + (o.moovFirst ? moov(o).length : 0) + mdatHeader.length);
  const handle = await open(path, 'w');
  try {
    await handle.write(ftyp, 0, ftyp.length, 0);
    let pos = ftyp.length;
    if (o.moovFirst) {
      await handle.write(movie, 0, movie.length, pos);
      pos += movie.length;
    }
    await handle.write(mdatHeader, 0, mdatHeader.length, pos);
    pos += mdatHeader.length + o.mdatBytes;
    if (!o.moovFirst) await handle.write(movie, 0, movie.length, pos);
    else await handle.truncate(pos);
  } finally {
    await handle.close();
  }
}

function bigU64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
}

// --- Matroska / WebM ---

function ebmlId(id: number): Buffer {
  const bytes: number[] = [];
  for (let v = id; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from(bytes);
}

function el(id: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const size = Buffer.alloc(8);
  size.writeBigUInt64BE(BigInt(body.length));
  size[0] = 0x01; // 8-byte size marker
  return Buffer.concat([ebmlId(id), size, body]);
}

const uintEl = (id: number, n: number): Buffer => el(id, u32(n));
const strEl = (id: number, s: string): Buffer => el(id, Buffer.from(s, 'latin1'));
const f64El = (id: number, n: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(n);
  return el(id, b);
};

export interface MkvOptions {
  docType?: 'webm' | 'matroska';
  width?: number;
  height?: number;
  durationSec?: number;
  videoCodec?: string;
  /** null: no sound track. */
  audioCodec?: string | null;
  /** Place Tracks after the first Cluster, reachable only through the SeekHead. */
  tracksAtEnd?: boolean;
}

export async function writeMkv(path: string, options: MkvOptions = {}): Promise<void> {
  const o = {
    docType: 'webm',
    width: 1280,
    height: 720,
    durationSec: 7.25,
    videoCodec: 'V_VP9',
    audioCodec: 'A_OPUS',
    tracksAtEnd: false,
    ...options,
  };
  const header = el(0x1a45dfa3, uintEl(0x4286, 1), strEl(0x4282, o.docType), uintEl(0x4287, 4), uintEl(0x4285, 2));
  const info = el(0x1549a966, uintEl(0x2ad7b1, 1_000_000), f64El(0x4489, o.durationSec * 1000));
  const tracks = el(
    0x1654ae6b,
    el(
      0xae,
      uintEl(0xd7, 1),
      uintEl(0x83, 1),
      strEl(0x86, o.videoCodec),
      el(0xe0, uintEl(0xb0, o.width), uintEl(0xba, o.height)),
    ),
    ...(o.audioCodec === null ? [] : [el(0xae, uintEl(0xd7, 2), uintEl(0x83, 2), strEl(0x86, o.audioCodec))]),
  );
  const cluster = el(0x1f43b675, uintEl(0xe7, 0), zeros(64));
  const seekEntry = (id: number, pos: number): Buffer => el(0x4dbb, el(0x53ab, ebmlId(id)), uintEl(0x53ac, pos));
  // Seek positions are relative to the segment data; the seek head has a fixed size, so compute it once.
  const seekHeadSize = el(0x114d9b74, seekEntry(0x1549a966, 0), seekEntry(0x1654ae6b, 0)).length;
  const children = o.tracksAtEnd ? [info, cluster, tracks] : [info, tracks, cluster];
  const infoPos = seekHeadSize;
  const tracksPos = o.tracksAtEnd ? seekHeadSize + info.length + cluster.length : seekHeadSize + info.length;
  const seekHead = el(0x114d9b74, seekEntry(0x1549a966, infoPos), seekEntry(0x1654ae6b, tracksPos));
  await writeFile(path, Buffer.concat([header, el(0x18538067, seekHead, ...children)]));
}

// --- AVI ---

function chunk(id: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from(id, 'latin1'), le32(body.length), body, body.length % 2 ? zeros(1) : zeros(0)]);
}

export async function writeAvi(
  path: string,
  o: { width?: number; height?: number; fps?: number; frames?: number } = {},
): Promise<void> {
  const width = o.width ?? 320;
  const height = o.height ?? 240;
  const fps = o.fps ?? 25;
  const frames = o.frames ?? 100;
  const avih = chunk(
    'avih',
    le32(Math.round(1e6 / fps)),
    le32(0),
    le32(0),
    le32(0x10),
    le32(frames),
    le32(0),
    le32(2),
    le32(0),
    le32(width),
    le32(height),
    zeros(16),
  );
  const vStrh = chunk(
    'strh',
    Buffer.from('vidsXVID'),
    le32(0),
    le16(0),
    le16(0),
    le32(0),
    le32(1),
    le32(fps),
    le32(0),
    le32(frames),
    zeros(20),
  );
  const bih = chunk(
    'strf',
    le32(40),
    le32(width),
    le32(-height >>> 0),
    le16(1),
    le16(24),
    Buffer.from('XVID'),
    zeros(20),
  );
  const aStrh = chunk(
    'strh',
    Buffer.from('auds\0\0\0\0'),
    le32(0),
    le16(0),
    le16(0),
    le32(0),
    le32(1152),
    le32(44100),
    le32(0),
    le32(200),
    zeros(20),
  );
  const wfx = chunk('strf', le16(0x55), le16(2), le32(44100), le32(16000), le16(1), le16(0), le16(0));
  const hdrl = chunk(
    'LIST',
    Buffer.from('hdrl'),
    avih,
    chunk('LIST', Buffer.from('strl'), vStrh, bih),
    chunk('LIST', Buffer.from('strl'), aStrh, wfx),
  );
  const movi = chunk('LIST', Buffer.from('movi'), chunk('00dc', zeros(10)));
  const riffBody = Buffer.concat([Buffer.from('AVI '), hdrl, movi]);
  await writeFile(path, Buffer.concat([Buffer.from('RIFF'), le32(riffBody.length), riffBody]));
}

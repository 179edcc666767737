// Reads duration, dimensions and codecs from AVI (RIFF) headers.
import { MediaProbeError, type ContainerInfo, type RandomAccessReader } from './reader.ts';

const MAX_HDRL_BYTES = 1 << 20;

function* chunks(buf: Buffer, start: number): Generator<{ id: string; data: Buffer }> {
  let pos = start;
  while (pos + 8 <= buf.length) {
    const id = buf.toString('latin1', pos, pos + 4);
    const size = buf.readUInt32LE(pos + 4);
    const end = Math.min(pos + 8 + size, buf.length);
    yield { id, data: buf.subarray(pos + 8, end) };
    pos = pos + 8 + size + (size & 1); // chunks are word-aligned
  }
}

const VIDEO_FOURCC: Readonly<Record<string, string>> = {
  H264: 'h264',
  X264: 'h264',
  AVC1: 'h264',
  DAVC: 'h264',
  HEVC: 'hevc',
  H265: 'hevc',
  HEV1: 'hevc',
  XVID: 'mpeg4',
  DIVX: 'mpeg4',
  DX50: 'mpeg4',
  FMP4: 'mpeg4',
  MP4V: 'mpeg4',
  DIV3: 'msmpeg4v3',
  MP43: 'msmpeg4v3',
  MJPG: 'mjpeg',
  VP80: 'vp8',
  VP90: 'vp9',
  AV01: 'av1',
  WMV3: 'wmv3',
  WVC1: 'vc1',
  DVSD: 'dvvideo',
  CVID: 'cinepak',
};

const AUDIO_TAGS: Readonly<Record<number, string>> = {
  1: 'pcm_s16le',
  3: 'pcm_f32le',
  6: 'pcm_alaw',
  7: 'pcm_mulaw',
  80: 'mp2',
  85: 'mp3',
  255: 'aac',
  5648: 'aac',
  28781: 'aac',
  8192: 'ac3',
  8193: 'dts',
  353: 'wmav2',
  354: 'wmapro',
  26447: 'vorbis',
  26448: 'vorbis',
  26449: 'vorbis',
  61868: 'flac',
};

function videoCodec(fourcc: string): string {
  const name = fourcc.replace(/\0/g, '').trim();
  return VIDEO_FOURCC[name.toUpperCase()] ?? name.toLowerCase();
}

interface Stream {
  type: string;
  handler: string;
  scale: number;
  rate: number;
  length: number;
  format?: Buffer;
}

function readStrl(data: Buffer): Stream | undefined {
  let stream: Stream | undefined;
  for (const chunk of chunks(data, 4)) {
    if (chunk.id === 'strh' && chunk.data.length >= 36) {
      const d = chunk.data;
      stream = {
        type: d.toString('latin1', 0, 4),
        handler: d.toString('latin1', 4, 8),
        scale: d.readUInt32LE(20),
        rate: d.readUInt32LE(24),
        length: d.readUInt32LE(32),
      };
    } else if (chunk.id === 'strf' && stream) {
      stream.format = chunk.data;
    }
  }
  return stream;
}

export async function probeAvi(reader: RandomAccessReader): Promise<ContainerInfo> {
  const head = await reader.read(0, 24);
  if (head.length < 24 || head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'AVI ') {
    throw new MediaProbeError('not an AVI file');
  }
  // hdrl is required to be the first chunk after the RIFF header.
  if (head.toString('latin1', 12, 16) !== 'LIST' || head.toString('latin1', 20, 24) !== 'hdrl') {
    throw new MediaProbeError('AVI file without a leading hdrl list');
  }
  const hdrl = await reader.read(20, Math.min(head.readUInt32LE(16), MAX_HDRL_BYTES));
  let usPerFrame = 0;
  let totalFrames = 0;
  let width = 0;
  let height = 0;
  const streams: Stream[] = [];
  for (const chunk of chunks(hdrl, 4)) {
    if (chunk.id === 'avih' && chunk.data.length >= 40) {
      usPerFrame = chunk.data.readUInt32LE(0);
      totalFrames = chunk.data.readUInt32LE(16);
      width = chunk.data.readUInt32LE(32);
      height = chunk.data.readUInt32LE(36);
    } else if (chunk.id === 'LIST') {
      const listType = chunk.data.toString('latin1', 0, 4);
      if (listType === 'strl') {
        const stream = readStrl(chunk.data);
        if (stream) streams.push(stream);
      } else if (listType === 'odml') {
        // OpenDML files over 1 GB count only the first RIFF's frames in avih; dmlh has the real total.
        for (const sub of chunks(chunk.data, 4))
          if (sub.id === 'dmlh' && sub.data.length >= 4) totalFrames = sub.data.readUInt32LE(0);
      }
    }
  }
  const info: ContainerInfo = {};
  const video = streams.find((s) => s.type === 'vids');
  const audio = streams.find((s) => s.type === 'auds');
  if (video) {
    const format = video.format;
    const compression = format && format.length >= 20 ? format.toString('latin1', 16, 20) : video.handler;
    info.videoCodec = videoCodec(compression);
    info.rotation = 0;
    if (format && format.length >= 12) {
      width ||= format.readInt32LE(4);
      height ||= Math.abs(format.readInt32LE(8));
    }
    if (video.rate > 0 && video.length > 0) info.durationSec = (video.length * video.scale) / video.rate;
  }
  if (info.durationSec === undefined && usPerFrame > 0 && totalFrames > 0)
    info.durationSec = (totalFrames * usPerFrame) / 1e6;
  if (width) info.width = width;
  if (height) info.height = height;
  if (audio?.format && audio.format.length >= 2) {
    const tag = audio.format.readUInt16LE(0);
    info.audioCodec = AUDIO_TAGS[tag] ?? `0x${tag.toString(16).padStart(4, '0')}`;
  }
  return info;
}

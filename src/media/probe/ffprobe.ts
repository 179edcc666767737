// Uses the ffprobe binary, when installed, as the most thorough video prober.
import { resolve } from 'node:path';
import { z } from 'zod';
import { runProgram } from '../../program.ts';
import { MediaProbeError, type ContainerInfo } from './reader.ts';

const StreamSchema = z.object({
  codec_type: z.string().optional(),
  codec_name: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  duration: z.string().optional(),
  tags: z.record(z.string(), z.string()).optional(),
  disposition: z.record(z.string(), z.number()).optional(),
  side_data_list: z.array(z.object({ rotation: z.number().optional() })).optional(),
});

const OutputSchema = z.object({
  streams: z.array(StreamSchema).default([]),
  format: z.object({ duration: z.string().optional() }).optional(),
});

// The demuxers for Herald's accepted containers; nothing else is even opened.
const FORMATS = 'mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi';
const MAX_OUTPUT = 4 << 20;

function positiveNumber(text: string | undefined): number | undefined {
  const value = text === undefined ? NaN : Number(text);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

function rotationOf(stream: z.infer<typeof StreamSchema>): number {
  // Older ffprobe reports a clockwise "rotate" tag; newer ones a counter-clockwise display matrix angle.
  const tag = stream.tags?.rotate;
  const matrix = stream.side_data_list?.find((d) => d.rotation !== undefined)?.rotation;
  const clockwise = tag !== undefined ? Number(tag) : matrix !== undefined ? -matrix : 0;
  const degrees = Math.round((Number.isFinite(clockwise) ? clockwise : 0) / 90) * 90;
  return ((degrees % 360) + 360) % 360;
}

export function toContainerInfo(raw: unknown): ContainerInfo {
  const parsed = OutputSchema.safeParse(raw);
  if (!parsed.success) throw new MediaProbeError('unexpected ffprobe output');
  const { streams, format } = parsed.data;
  const video = streams.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  const audio = streams.find((s) => s.codec_type === 'audio');
  const info: ContainerInfo = {};
  const duration =
    positiveNumber(format?.duration) ?? positiveNumber(video?.duration) ?? positiveNumber(audio?.duration);
  if (duration !== undefined) info.durationSec = duration;
  if (video) {
    if (video.width) info.width = video.width;
    if (video.height) info.height = video.height;
    if (video.codec_name) info.videoCodec = video.codec_name;
    info.rotation = rotationOf(video);
  }
  if (audio?.codec_name) info.audioCodec = audio.codec_name;
  return info;
}

/**
 * Probes a file with ffprobe. Resolves null when the binary is not installed; rejects when ffprobe
 * ran and could not read the file.
 */
export async function ffprobe(binary: string, path: string, timeoutMs: number): Promise<ContainerInfo | null> {
  // "file:" keeps a path from being read as a URL or protocol, and the whitelist stops references inside the file.
  const args = [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    '-protocol_whitelist',
    'file',
    '-format_whitelist',
    FORMATS,
    '-i',
    `file:${resolve(path)}`,
  ];
  let r: Awaited<ReturnType<typeof runProgram>>;
  try {
    r = await runProgram(binary, args, { timeoutMs, maxOutput: MAX_OUTPUT });
  } catch (err) {
    throw new MediaProbeError(`could not run ffprobe: ${(err as Error).message}`, { cause: err });
  }
  if (!r) return null;
  if (r.code !== 0) {
    const why = r.signal
      ? `was killed (${r.signal}) after ${timeoutMs} ms or too much output`
      : r.stderr.trim().split('\n')[0];
    throw new MediaProbeError(`ffprobe could not read the file: ${why || `exit code ${r.code}`}`);
  }
  try {
    return toContainerInfo(JSON.parse(r.stdout.toString('utf8')));
  } catch (err) {
    throw err instanceof MediaProbeError ? err : new MediaProbeError('ffprobe printed invalid JSON', { cause: err });
  }
}

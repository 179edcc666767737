// The light part of the built-in provider that model answers are checked with too: what it calls itself,
// a network's caption limit and the kind of copy it takes, where video frames are taken. Importing it loads no
// tables and no fonts.
import type { NetworkContract } from '../../platforms/contract.ts';
import { resolve } from 'node:path';
import type { TextLimit } from '../../platforms/types.ts';
import { runProgram } from '../../program.ts';

export const BUILTIN_ID = 'builtin';
/** How every answer of the built-in provider names its source. */
export const BUILTIN_LABEL = "Herald's built-in provider (rules, text cards and OCR; no language or image model)";

/**
 * The kind of copy a network takes, from its contract:
 * - `title`: the caption is a title (limit ≤ 100), e.g. a video or pin title;
 * - `short`: a text network with a short limit (≤ 500): a hook first, few hashtags;
 * - `long`: a text network with room: paragraphs;
 * - `caption`: a network without text posts: a caption under a picture or video.
 */
export type CopyKind = 'title' | 'short' | 'long' | 'caption';

export const TITLE_MAX = 100;
const SHORT_MAX = 500;
/** For a network whose contract gives no caption limit. */
const FALLBACK_LIMIT: TextLimit = { max: 2200, unit: 'graphemes' };

export function captionLimit(network: NetworkContract): TextLimit {
  return network.capabilities.text ?? FALLBACK_LIMIT;
}

export function copyKind(network: NetworkContract): CopyKind {
  const limit = captionLimit(network);
  if (limit.max <= TITLE_MAX) return 'title';
  if (!network.capabilities.postTypes.includes('text')) return 'caption';
  return limit.max <= SHORT_MAX ? 'short' : 'long';
}

/**
 * Where frames of a video are sampled: a tenth, the middle and nine tenths in (the start when the length is unknown).
 */
export function sampleTimes(durationSec: number | null | undefined): number[] {
  if (!durationSec || durationSec <= 0) return [0];
  return [0.1, 0.5, 0.9].map((f) => Math.round(durationSec * f * 1000) / 1000);
}

/**
 * One frame of a video at `seconds`, as PNG (at most `width` wide when given); null without ffmpeg or a frame there.
 */
export async function frameAt(
  ffmpeg: string,
  path: string,
  seconds: number,
  timeoutMs: number,
  width?: number,
): Promise<Buffer | null> {
  const scale = width ? ['-vf', `scale=${width}:-2`] : [];
  const args = [
    '-v',
    'error',
    '-nostdin',
    '-protocol_whitelist',
    'file',
    '-ss',
    seconds.toFixed(3),
    '-i',
    `file:${resolve(path)}`,
    '-frames:v',
    '1',
    ...scale,
    '-f',
    'image2pipe',
    '-vcodec',
    'png',
    '-',
  ];
  // No ffmpeg, or no frame there: that frame is simply not read.
  const r = await runProgram(ffmpeg, args, { timeoutMs, maxOutput: 64 << 20 }).catch(() => null);
  return r && r.code === 0 && r.stdout.length > 0 ? r.stdout : null;
}

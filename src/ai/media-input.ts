// What the AI generators read from a medium (ai/service.ts): the built-in analysis, the pictures a vision model is
// shown, and the spoken words of a video.
import { readFile } from 'node:fs/promises';
import { runProgram } from '../program.ts';
import type { BuiltinProvider, MediaAnalysis } from './builtin/index.ts';
import { frameAt, sampleTimes } from './builtin/kinds.ts';
import type { AiConfig } from './config.ts';
import { aiSdk, encodeImage } from './model-copy.ts';
import type { AiModels } from './models.ts';

/** What Herald itself finds in an image or a video. */
export async function builtinAnalysis(
  builtin: () => Promise<BuiltinProvider>,
  path: string,
  kind: 'image' | 'video',
  name: string | null,
): Promise<MediaAnalysis> {
  if (kind === 'video') return (await builtin()).analyzeVideo(path, name ?? undefined);
  return (await builtin()).analyzeImage(await readFile(path), name ?? undefined);
}

/** What a vision model is shown: the image itself (as PNG), or three frames of a video. */
export async function picturesOf(
  config: AiConfig,
  path: string,
  kind: 'image' | 'video',
  durationSec: number | null,
): Promise<Buffer[]> {
  if (kind === 'image') {
    return [(await encodeImage(await readFile(path), { formats: ['png'] })).data];
  }
  const frames: Buffer[] = [];
  for (const at of sampleTimes(durationSec)) {
    const frame = await frameAt(config.ffmpegPath, path, at, 30_000, 768);
    if (frame) frames.push(frame);
  }
  return frames;
}

/** The spoken words of a video, when a transcription model is configured and the video has sound. */
export async function speechOf(models: AiModels | null, config: AiConfig, path: string): Promise<string> {
  const model = models?.transcription;
  if (!model) return '';
  const r = await runProgram(
    config.ffmpegPath,
    [
      '-v',
      'error',
      '-nostdin',
      '-protocol_whitelist',
      'file',
      '-i',
      `file:${path}`,
      '-vn',
      '-ac',
      '1',
      '-ar',
      '16000',
      '-t',
      '600',
      '-f',
      'wav',
      '-',
    ],
    { timeoutMs: 120_000, maxOutput: 25 << 20 },
  ).catch(() => null);
  if (r?.code !== 0 || r.stdout.length <= 44) return '';
  const out = await (await aiSdk()).transcribe({
    model,
    audio: r.stdout,
    maxRetries: 1,
    abortSignal: AbortSignal.timeout(config.timeoutMs),
  });
  return out.text.trim();
}

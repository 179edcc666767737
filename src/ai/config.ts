// The AI settings (HERALD_AI_*): which provider answers the AI routes, where it is and which models it
// uses. Unset, Herald answers with its built-in provider (src/ai/builtin), offline.
import { z } from 'zod';

export const AI_PROVIDERS = ['builtin', 'openai', 'anthropic', 'google', 'openai-compatible'] as const;
export type AiProviderName = (typeof AI_PROVIDERS)[number];

export interface AiConfig {
  provider: AiProviderName;
  /**
   * The provider's API base (required for openai-compatible; optional for the hosted providers). Operator-set: may be a
   * private address.
   */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** Copy and chat. */
  model: string | undefined;
  /** Images and video frames in; defaults to `model`. */
  visionModel: string | undefined;
  /** Images out; unset: the built-in card renderer draws them. */
  imageModel: string | undefined;
  /**
   * Speech to text (a video's sound, the agent's voice messages); unset: a video's sound is not read and transcription
   * answers 503.
   */
  transcribeModel: string | undefined;
  /** The largest audio file POST /workspace-agent/website/transcribe accepts. */
  transcribeMaxBytes: number;
  /** One model call's deadline. */
  timeoutMs: number;
  /** Copy over a network's limit is asked for again this many times before it is shortened. */
  retriesWhenTooLong: number;
  /** ffmpeg, for video frames and sound (the built-in provider uses it too). */
  ffmpegPath: string;
  tesseractPath: string;
}

const trimmed = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

export const aiEnvSchema = z.object({
  HERALD_AI_PROVIDER: z.enum(AI_PROVIDERS).default('builtin'),
  HERALD_AI_BASE_URL: trimmed.pipe(
    z
      .url()
      .regex(/^https?:\/\//, 'must be an http(s) URL')
      .optional(),
  ),
  HERALD_AI_API_KEY: trimmed,
  HERALD_AI_MODEL: trimmed,
  HERALD_AI_VISION_MODEL: trimmed,
  HERALD_AI_IMAGE_MODEL: trimmed,
  HERALD_AI_TRANSCRIBE_MODEL: trimmed,
  // 25 MiB: what OpenAI's /audio/transcriptions accepts (about 25 minutes of Opus voice, 2½ minutes of 16-bit stereo
  // WAV).
  HERALD_AI_TRANSCRIBE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(25 * 1024 * 1024),
  HERALD_AI_TIMEOUT_SECONDS: z.coerce.number().min(1).max(600).default(60),
  HERALD_AI_RETRIES_WHEN_TOO_LONG: z.coerce.number().int().min(0).max(3).default(1),
  HERALD_FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  HERALD_TESSERACT_PATH: z.string().min(1).default('tesseract'),
});

/** Problems with the settings, one line each (empty when they hold together). */
export function aiConfigErrors(e: z.infer<typeof aiEnvSchema>): string[] {
  const errors: string[] = [];
  if (e.HERALD_AI_PROVIDER === 'builtin') return errors;
  if (!e.HERALD_AI_MODEL) errors.push(`  HERALD_AI_MODEL: required with HERALD_AI_PROVIDER=${e.HERALD_AI_PROVIDER}`);
  if (e.HERALD_AI_PROVIDER === 'openai-compatible' && !e.HERALD_AI_BASE_URL)
    errors.push(
      '  HERALD_AI_BASE_URL: required with HERALD_AI_PROVIDER=openai-compatible (e.g. http://localhost:11434/v1)',
    );
  if (e.HERALD_AI_PROVIDER !== 'openai-compatible' && !e.HERALD_AI_API_KEY)
    errors.push(`  HERALD_AI_API_KEY: required with HERALD_AI_PROVIDER=${e.HERALD_AI_PROVIDER}`);
  return errors;
}

export function toAiConfig(e: z.infer<typeof aiEnvSchema>): AiConfig {
  return {
    provider: e.HERALD_AI_PROVIDER,
    baseUrl: e.HERALD_AI_BASE_URL?.replace(/\/+$/, ''),
    apiKey: e.HERALD_AI_API_KEY,
    model: e.HERALD_AI_MODEL,
    visionModel: e.HERALD_AI_VISION_MODEL ?? e.HERALD_AI_MODEL,
    imageModel: e.HERALD_AI_IMAGE_MODEL,
    transcribeModel: e.HERALD_AI_TRANSCRIBE_MODEL,
    transcribeMaxBytes: e.HERALD_AI_TRANSCRIBE_MAX_BYTES,
    timeoutMs: e.HERALD_AI_TIMEOUT_SECONDS * 1000,
    retriesWhenTooLong: e.HERALD_AI_RETRIES_WHEN_TOO_LONG,
    ffmpegPath: e.HERALD_FFMPEG_PATH,
    tesseractPath: e.HERALD_TESSERACT_PATH,
  };
}

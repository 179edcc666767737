// Speech to text for the workspace agent's voice messages (POST /workspace-agent/website/transcribe), through the
// configured transcription model (HERALD_AI_TRANSCRIBE_MODEL). Without one there is no transcript at all — never a
// made-up one — and the refusal says which settings give Herald one.
import type { TranscriptionModel } from 'ai';
import type { Logger } from 'pino';
import { AppError } from '../errors.ts';
import type { AiConfig } from './config.ts';
import { modelFailure } from './model-copy.ts';

const HOW =
  'Set HERALD_AI_TRANSCRIBE_MODEL with HERALD_AI_PROVIDER=openai (and HERALD_AI_API_KEY, HERALD_AI_MODEL; e.g. HERALD_AI_TRANSCRIBE_MODEL=whisper-1) ' +
  'or HERALD_AI_PROVIDER=openai-compatible (and HERALD_AI_BASE_URL of a server with /audio/transcriptions, HERALD_AI_MODEL), then restart Herald. ' +
  'See docs/agent.md#transcription.';

/** Why this server has no speech-to-text model, and how to give it one (the 503 detail). */
export function notConfiguredDetail(cfg: Pick<AiConfig, 'provider' | 'transcribeModel'>): string {
  switch (cfg.provider) {
    case 'builtin':
      return `Transcription is not configured: Herald's built-in provider has no speech-to-text. ${HOW}`;
    case 'anthropic':
    case 'google':
      return `Transcription is not configured: HERALD_AI_PROVIDER=${cfg.provider} has no speech-to-text models in Herald. ${HOW}`;
    default:
      return `Transcription is not configured: HERALD_AI_TRANSCRIBE_MODEL is not set. ${HOW}`;
  }
}

export interface SpeechToTextDeps {
  model: TranscriptionModel | null;
  config: AiConfig;
  logger: Logger;
}

export class SpeechToText {
  readonly #d: SpeechToTextDeps;

  constructor(deps: SpeechToTextDeps) {
    this.#d = deps;
  }

  get configured(): boolean {
    return this.#d.model !== null;
  }

  /** The largest file accepted (HERALD_AI_TRANSCRIBE_MAX_BYTES). */
  get maxBytes(): number {
    return this.#d.config.transcribeMaxBytes;
  }

  /** 503 (with how to configure one) when there is no model. */
  assertConfigured(): void {
    if (!this.#d.model) throw new AppError('not_configured', notConfiguredDetail(this.#d.config));
  }

  /**
   * The words spoken in the audio, trimmed. A model that fails is a 502 in words that name no internals; the AI SDK
   * reads the audio's type from its bytes (the route has checked them).
   */
  async transcribe(audio: Uint8Array): Promise<string> {
    this.assertConfigured();
    const { transcribe } = await import('ai');
    try {
      const out = await transcribe({
        model: this.#d.model!,
        audio,
        maxRetries: 1,
        abortSignal: AbortSignal.timeout(this.#d.config.timeoutMs),
      });
      return out.text.trim();
    } catch (err) {
      const why = modelFailure(err);
      this.#d.logger.warn({ error: why, name: (err as Error)?.name }, 'transcription failed');
      throw new AppError('bad_gateway', `Transcription failed: ${why}`);
    }
  }
}

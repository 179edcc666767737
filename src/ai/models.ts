// The configured provider's models, as AI SDK model instances (never bare model-id strings, which the SDK
// would route to a hosted gateway). Chat Completions servers (Ollama, vLLM, LM Studio, llama.cpp) go
// through @ai-sdk/openai-compatible; their transcription endpoint (/audio/transcriptions) is OpenAI's.
// Only the configured provider's package is loaded (the built-in provider loads none). These packages are optional
// (src/optional-packages.ts): a server installs the ones its provider needs.
import type { ImageModel, LanguageModel, TranscriptionModel } from 'ai';
import { requireFeature } from '../optional-packages.ts';
import type { AiConfig } from './config.ts';

export interface AiModels {
  /** Names the provider and model in answers ("openai-compatible gpt-oss:20b"). */
  label: string;
  language: LanguageModel;
  vision: LanguageModel;
  image: ImageModel | null;
  transcription: TranscriptionModel | null;
}

export class AiModelConfigError extends Error {}

/** The models of the configured provider, or null for the built-in provider. */
export async function createModels(cfg: AiConfig, fetchImpl?: typeof fetch): Promise<AiModels | null> {
  if (cfg.provider === 'builtin' || !cfg.model) return null;
  // The AI SDK is not part of the server install: a provider configured without its packages stops here, naming them.
  requireFeature(cfg.provider);
  const common = {
    ...(cfg.apiKey ? { apiKey: cfg.apiKey } : {}),
    ...(cfg.baseUrl ? { baseURL: cfg.baseUrl } : {}),
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  };
  const visionId = cfg.visionModel ?? cfg.model;
  const unsupported = (what: string) =>
    new AiModelConfigError(
      `HERALD_AI_PROVIDER=${cfg.provider} has no ${what} models in Herald; unset the setting or use another provider`,
    );
  let models: Omit<AiModels, 'label'>;
  switch (cfg.provider) {
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      const p = createOpenAI(common);
      models = {
        language: p(cfg.model),
        vision: p(visionId),
        image: cfg.imageModel ? p.image(cfg.imageModel) : null,
        transcription: cfg.transcribeModel ? p.transcription(cfg.transcribeModel) : null,
      };
      break;
    }
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      const p = createAnthropic(common);
      if (cfg.imageModel) throw unsupported('image (HERALD_AI_IMAGE_MODEL)');
      if (cfg.transcribeModel) throw unsupported('transcription (HERALD_AI_TRANSCRIBE_MODEL)');
      models = { language: p(cfg.model), vision: p(visionId), image: null, transcription: null };
      break;
    }
    case 'google': {
      const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
      const p = createGoogleGenerativeAI(common);
      if (cfg.transcribeModel) throw unsupported('transcription (HERALD_AI_TRANSCRIBE_MODEL)');
      models = {
        language: p(cfg.model),
        vision: p(visionId),
        image: cfg.imageModel ? p.image(cfg.imageModel) : null,
        transcription: null,
      };
      break;
    }
    case 'openai-compatible': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      const { createOpenAI } = await import('@ai-sdk/openai');
      const p = createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: cfg.baseUrl!,
        ...(cfg.apiKey ? { apiKey: cfg.apiKey } : {}),
        ...(fetchImpl ? { fetch: fetchImpl } : {}),
        includeUsage: true,
      });
      // The same server's /audio/transcriptions, spoken to as OpenAI's API (what these servers implement).
      const speech = cfg.transcribeModel
        ? createOpenAI({ ...common, apiKey: cfg.apiKey ?? 'none' }).transcription(cfg.transcribeModel)
        : null;
      models = {
        language: p.chatModel(cfg.model),
        vision: p.chatModel(visionId),
        image: cfg.imageModel ? p.imageModel(cfg.imageModel) : null,
        transcription: speech,
      };
      break;
    }
  }
  return { label: `${cfg.provider} ${cfg.model}`, ...models };
}

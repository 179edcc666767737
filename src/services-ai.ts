import type { CreditService } from './auth/credits.ts';
import type { PlatformRegistry } from './platforms/registry.ts';
import type { MediaService } from './media/service.ts';
import type { BuiltinProvider } from './ai/builtin/index.ts';
import { createModels, type AiModels } from './ai/models.ts';
import { toolBox } from './tools/index.ts';
import type { ToolServices } from './tools/services.ts';
import { AiService } from './ai/service.ts';
import { SpeechToText } from './ai/transcription.ts';
import { AgentChatHistory } from './agent/history.ts';
import { AgentChat } from './agent/chat.ts';

/** What every area is built from. */
import type { Base } from './services.ts';

/** The AI generators, speech to text and the workspace agent's chat store. */
export async function aiServices(
  b: Base,
  d: { media: MediaService; credits: CreditService; platforms: PlatformRegistry },
) {
  const { config, overrides, db, clock, logger } = b;
  const { media, credits, platforms } = d;
  let builtinMade: Promise<BuiltinProvider> | undefined;
  const builtin = () =>
    (builtinMade ??= import('./ai/builtin/index.ts').then(
      (m) =>
        new m.BuiltinProvider({
          networks: platforms.networks,
          ocr: { binary: config.ai.tesseractPath },
          ffprobePath: config.media.ffprobePath,
          ffmpegPath: config.ai.ffmpegPath,
        }),
    ));
  const aiModels = overrides.aiModels !== undefined ? overrides.aiModels : await createModels(config.ai);
  const ai = new AiService({
    networks: platforms.networks,
    builtin,
    models: aiModels,
    credits,
    media: {
      addGenerated: (p, bytes, name, kind, loc) => media.addGenerated(p, bytes, name, kind, loc),
      readUrl: (p, url, kind, loc) => media.readUrl(p, url, kind, loc),
      release: (path) => media.release(path),
      publicUrl: (key) => media.storage.publicUrl(key),
    },
    config: config.ai,
    logger: logger.child({ component: 'ai' }),
  });
  const speech = new SpeechToText({
    model: aiModels?.transcription ?? null,
    config: config.ai,
    logger: logger.child({ component: 'speech' }),
  });
  const agentChats = new AgentChatHistory(db, clock);
  return { ai, speech, agentChats, aiModels };
}

/** The workspace agent: a model (or the built-in direct commands) working through the tool layer. */
export function agentService(
  b: Base,
  d: {
    tools: ToolServices;
    aiModels: AiModels | null;
    agentChats: AgentChatHistory;
    credits: CreditService;
    media: MediaService;
    platforms: PlatformRegistry;
  },
) {
  const { config, clock, logger } = b;
  const agent = new AgentChat({
    tools: toolBox(d.tools),
    networks: d.platforms.networks,
    models: d.aiModels,
    history: d.agentChats,
    credits: d.credits,
    media: d.media,
    config: config.agent,
    modelTimeoutMs: config.ai.timeoutMs,
    clock,
    logger: logger.child({ component: 'agent' }),
  });
  return { agent };
}

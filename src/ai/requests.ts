// The requests and answers of the AI generators (ai/service.ts), and what the service needs of the rest of Herald.
import type { Logger } from 'pino';
import type { Principal } from '../auth/authenticate.ts';
import type { CreditService } from '../auth/credits.ts';
import type { NetworkContract } from '../platforms/contract.ts';
import type { BuiltinProvider } from './builtin/index.ts';
import type { AiConfig } from './config.ts';
import type { AiModels } from './models.ts';

/** What the AI routes need of the media library. */
export interface AiMedia {
  addGenerated(
    p: Principal,
    bytes: Buffer,
    filename: string,
    kind: 'image',
    loc: (string | number)[],
  ): Promise<{ id: string; storageKey: string }>;
  readUrl(
    p: Principal,
    url: string,
    kind: 'image' | 'video',
    loc: (string | number)[],
  ): Promise<{ path: string; size: number; name: string | null }>;
  release(path: string): Promise<void>;
  publicUrl(storageKey: string): string;
}

export interface AiServiceDeps {
  networks: readonly NetworkContract[];
  /** The built-in provider, made on first use (its language tables and fonts are not loaded before). */
  builtin: () => Promise<BuiltinProvider>;
  models: AiModels | null;
  credits: CreditService;
  media: AiMedia;
  config: AiConfig;
  logger: Logger;
}

export type NetworkResult<T> = T | { error: string };
export interface Generated<T> {
  message: string;
  data: Record<string, NetworkResult<T>>;
}

export interface CopyRequest {
  idea?: string | undefined;
  ideaByPlatform?: Record<string, string> | undefined;
  platforms: readonly string[];
  userRequirements?: string | undefined;
}

export interface ImageRequest {
  content?: string | undefined;
  contentByPlatform?: Record<string, string> | undefined;
  targets: readonly string[];
  userRequirements?: string | undefined;
}

export interface MediaCopyRequest {
  url: string;
  kind: 'image' | 'video';
  platforms: readonly string[];
  userRequirements?: string | undefined;
  loc: (string | number)[];
}

export interface AnalysisResult {
  media_type: 'image' | 'video';
  description: string;
  alt_text: string;
  text_found: string;
  width: number | null;
  height: number | null;
  duration_seconds: number | null;
  format: string;
  source: string;
}

/**
 * Events of a streamed generation, in order: pieces per network as they arrive, then each network's final copy or
 * error.
 */
export type CopyEvent =
  | { type: 'delta'; platform: string; text: string }
  | { type: 'done'; platform: string; content: string }
  | { type: 'error'; platform: string; error: string };

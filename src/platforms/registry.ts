// Slug → adapter. Adding a network is one folder plus one line here.
import type { Logger } from 'pino';
import type { Platform } from '../auth/scopes.ts';
import type { PlatformEnvConfig } from '../config.ts';
import { blueskyAdapter } from './bluesky/index.ts';
import { facebookAdapter } from './facebook/index.ts';
import { instagramAdapter } from './instagram/index.ts';
import { linkedinAdapter } from './linkedin/index.ts';
import { pinterestAdapter } from './pinterest/index.ts';
import { threadsAdapter } from './threads/index.ts';
import { tiktokAdapter } from './tiktok/index.ts';
import { youtubeAdapter } from './youtube/index.ts';
import type { PlatformHttp } from './http.ts';
import type { AdapterFactory, PlatformAdapter } from './types.ts';

export const ADAPTERS: Record<Platform, AdapterFactory> = {
  linkedin: linkedinAdapter,
  instagram: instagramAdapter,
  facebook: facebookAdapter,
  threads: threadsAdapter,
  tiktok: tiktokAdapter,
  youtube: youtubeAdapter,
  pinterest: pinterestAdapter,
  bluesky: blueskyAdapter,
};

export class PlatformRegistry {
  readonly #adapters: Map<Platform, PlatformAdapter>;

  constructor(opts: { http: PlatformHttp; configs: Record<Platform, PlatformEnvConfig>; clock: () => Date; logger: Logger; factories?: Partial<Record<Platform, AdapterFactory>> }) {
    this.#adapters = new Map(
      (Object.keys(ADAPTERS) as Platform[]).map((p) => {
        const factory = opts.factories?.[p] ?? ADAPTERS[p];
        return [p, factory({ http: opts.http, config: opts.configs[p], clock: opts.clock, logger: opts.logger.child({ platform: p }) })];
      }),
    );
  }

  get(platform: Platform): PlatformAdapter {
    const a = this.#adapters.get(platform);
    if (!a) throw new Error(`No adapter for ${platform}`);
    return a;
  }

  all(): PlatformAdapter[] {
    return [...this.#adapters.values()];
  }
}

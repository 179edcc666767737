// The networks Herald knows: one line per network folder. Adding a network is one folder plus one line
// in NETWORKS. Everything else (publishing, scheduling, connections, the sandbox) asks the registry.
import type { Logger } from 'pino';
import type { NetworkContract } from './contract.ts';
import { resolveHosts } from './hosts.ts';
import type { PlatformHttp } from './http.ts';
import { network as bluesky } from './bluesky/index.ts';
import { network as facebook } from './facebook/index.ts';
import { network as instagram } from './instagram/index.ts';
import { network as linkedin } from './linkedin/index.ts';
import { network as pinterest } from './pinterest/index.ts';
import { network as threads } from './threads/index.ts';
import { network as tiktok } from './tiktok/index.ts';
import { network as youtube } from './youtube/index.ts';
import type { PostType } from './publishing.ts';
import type { Platform } from './slugs.ts';
import type { AdapterFactory, PlatformAdapter, PlatformAppConfig } from './types.ts';

export const NETWORKS: readonly NetworkContract[] = [
  linkedin,
  instagram,
  facebook,
  threads,
  tiktok,
  youtube,
  pinterest,
  bluesky,
];

/** The built-in networks' adapter factories, by slug. */
export const ADAPTERS = Object.fromEntries(NETWORKS.map((n) => [n.slug, n.adapter])) as Record<
  Platform,
  AdapterFactory
>;

/** An app's credentials and host overrides, as config (or the sandbox) gives them. */
export interface NetworkConfig {
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  /** Base URLs by host key (HERALD_<NET>_<KEY>_URL); keys the contract does not declare are ignored. */
  urls: Record<string, string>;
  /** OAuth scopes to ask for instead of the adapter's own list (HERALD_<NET>_SCOPES). */
  scopes?: readonly string[] | undefined;
  /** What the operator declares about the app (HERALD_<NET>_<KEY>, e.g. HERALD_TIKTOK_AUDITED). */
  settings?: Readonly<Record<string, string>> | undefined;
}

export interface RegistryOptions {
  http: PlatformHttp;
  configs: Partial<Record<string, NetworkConfig>>;
  clock: () => Date;
  logger: Logger;
  /** Swap an adapter (tests of failure paths). */
  factories?: Partial<Record<string, AdapterFactory>>;
  /** The networks (default: the built-in ones); tests add their own. */
  networks?: readonly NetworkContract[];
}

/** The contracts of a list of networks, by slug (no adapters: see PlatformRegistry). */
export class Networks {
  readonly networks: readonly NetworkContract[];
  /** Every registered slug, in registration order. */
  readonly slugs: readonly Platform[];
  /** The networks whose body has an override object under their slug. */
  readonly overrideKeys: readonly Platform[];
  readonly #contracts: Map<string, NetworkContract>;

  constructor(networks: readonly NetworkContract[] = NETWORKS) {
    this.networks = networks;
    this.slugs = networks.map((n) => n.slug);
    this.overrideKeys = networks.filter((n) => n.override).map((n) => n.slug);
    this.#contracts = new Map(networks.map((n) => [n.slug, n]));
    if (this.#contracts.size !== networks.length) throw new Error('Two networks share a slug');
  }

  /** Whether `slug` names a registered network. */
  has(slug: string): slug is Platform {
    return this.#contracts.has(slug);
  }

  /** The contract of a registered network. */
  network(slug: string): NetworkContract {
    const n = this.#contracts.get(slug);
    if (!n) throw new Error(`No network ${slug}`);
    return n;
  }

  /** The networks on a post type's route. */
  onRoute(postType: PostType): Platform[] {
    return this.networks.filter((n) => n.capabilities.postTypes.includes(postType)).map((n) => n.slug);
  }
}

/** The networks and their adapters, configured for this server. */
export class PlatformRegistry extends Networks {
  readonly #adapters: Map<string, PlatformAdapter>;

  constructor(opts: RegistryOptions) {
    super(opts.networks);
    this.#adapters = new Map(
      this.networks.map((n) => {
        const factory = opts.factories?.[n.slug] ?? n.adapter;
        const c = opts.configs[n.slug];
        const config: PlatformAppConfig = {
          clientId: c?.clientId,
          clientSecret: c?.clientSecret,
          urls: resolveHosts(n.hosts, c?.urls),
          ...(c?.scopes ? { scopes: c.scopes } : {}),
          ...(c?.settings ? { settings: c.settings } : {}),
        };
        return [
          n.slug,
          factory({ http: opts.http, config, clock: opts.clock, logger: opts.logger.child({ platform: n.slug }) }),
        ];
      }),
    );
  }

  get(platform: string): PlatformAdapter {
    const a = this.#adapters.get(platform);
    if (!a) throw new Error(`No adapter for ${platform}`);
    return a;
  }

  all(): PlatformAdapter[] {
    return [...this.#adapters.values()];
  }
}

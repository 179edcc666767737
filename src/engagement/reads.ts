// What every engagement piece shares: the connection and read plan of a network, when its sources were last listed,
// refreshing a post list (with the ledger fallback), one known post read and stored, a network failure worded as the
// API answers it, and one post's comments synced. A network is only ever asked about objects this workspace has seen.
import { LRUCache } from 'lru-cache';
import pLimit from 'p-limit';
import type { ConnectionRow } from '../connections/store.ts';
import type { TokenKeeper } from '../connections/tokens.ts';
import { AppError } from '../errors.ts';
import { readTargetId, type ReadTargets } from '../platforms/contract.ts';
import type { Comments, Engagement, RemotePost } from '../platforms/engagement.ts';
import type { PublishDestination } from '../platforms/publishing.ts';
import type { Platform } from '../platforms/slugs.ts';
import { PlatformError } from '../platforms/types.ts';
import { accountAuthor } from './inbox.ts';
import { publishedAsRemote, storedAsRemote } from './remote-posts.ts';
import type { PostRow, PublishedPost, Sources } from './store.ts';
import {
  iso,
  notConnected,
  wireError,
  type DestinationFilter,
  type EngagementDeps,
  type PostRecord,
  type ReadPlan,
} from './types.ts';

export class EngagementReads {
  readonly d: EngagementDeps;
  /**
   * When each source's post list was last read from the network (ms), by workspace, network and source: a source with
   * no posts at all has no stored row to date it, and must not be asked again on every read.
   */
  #listedCache: LRUCache<string, number> | undefined;
  /** Made on first use: a cache of 50,000 entries allocates its tables up front. */
  get #listed(): LRUCache<string, number> {
    return (this.#listedCache ??= new LRUCache<string, number>({ max: 50_000 }));
  }

  constructor(deps: EngagementDeps) {
    this.d = deps;
  }

  #listedKey(workspaceId: string, platform: string, source: string | null): string {
    return `${workspaceId}|${platform}|${source ?? ''}`;
  }

  /** When a source's post list was last read from the network (ms), if this process read it. */
  listedAt(workspaceId: string, platform: string, source: string | null): number | undefined {
    return this.#listed.get(this.#listedKey(workspaceId, platform, source));
  }

  /** When every source of the plan was last listed: the oldest of their newest refreshes; null if one never was. */
  lastListed(workspaceId: string, platform: string, sources: Sources, rows: readonly PostRow[]): Date | null {
    let oldest: number | null = null;
    for (const source of sources) {
      let newest = this.#listed.get(this.#listedKey(workspaceId, platform, source)) ?? null;
      for (const r of rows)
        if (r.sourcePageId === source && (newest === null || r.refreshedAt.getTime() > newest))
          newest = r.refreshedAt.getTime();
      if (newest === null) return null;
      if (oldest === null || newest < oldest) oldest = newest;
    }
    return oldest === null ? null : new Date(oldest);
  }

  name(platform: Platform): string {
    return this.d.registry.get(platform).displayName;
  }

  reads(platform: Platform): ReadTargets | undefined {
    return this.d.registry.network(platform).reads;
  }

  async connection(
    workspaceId: string,
    platform: Platform,
    all?: readonly ConnectionRow[],
  ): Promise<ConnectionRow | undefined> {
    const rows = all
      ? all.filter((r) => r.platform === platform)
      : await this.d.connections.list(workspaceId, platform);
    return rows.find((r) => r.status === 'connected') ?? rows[0];
  }

  /** Which sources of this account a read covers, from the network's read rules and the caller's filter. */
  plan(platform: Platform, row: ConnectionRow, engagement: Engagement, filter: DestinationFilter): ReadPlan {
    const reads = this.reads(platform);
    const targets: ReadPlan['targets'] = [];
    const unknown: string[] = [];
    if (!reads) {
      targets.push({ destination: undefined, source: null });
    } else {
      const own = ((row.destinations ?? []) as { kind: string; id: string }[]).filter((d) => d.kind === reads.kind);
      const asked = (filter[reads.param] ?? []).map((id) => readTargetId(reads, id));
      if (asked.length) {
        for (const id of asked) {
          if (own.some((d) => d.id === id)) targets.push({ destination: { kind: reads.kind, id }, source: id });
          else unknown.push(id);
        }
        if (!reads.filterExcludesAccount && reads.byDefault !== 'destinations' && !targets.length && !unknown.length)
          targets.push({ destination: undefined, source: null });
      } else {
        if (reads.byDefault !== 'destinations') targets.push({ destination: undefined, source: null });
        if (reads.byDefault !== 'account')
          for (const d of own) targets.push({ destination: { kind: reads.kind, id: d.id }, source: d.id });
      }
    }
    return { row, engagement, targets, sources: targets.map((t) => t.source), unknown };
  }

  unknownMessage(platform: Platform, unknown: string[]): string | undefined {
    if (!unknown.length) return undefined;
    const reads = this.reads(platform);
    return `${this.name(platform)}: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not among the connected account's ${reads?.kind ?? 'destination'}s.`;
  }

  /**
   * Asks the network for each source's recent posts and stores them; the first error, if any. A source the network
   * will not list for Herald's grant (a LinkedIn member's own posts without r_member_social) falls back to the posts
   * Herald published there, whose numbers the network still gives (`getMetrics`).
   */
  async refreshPosts(
    workspaceId: string,
    platform: Platform,
    plan: ReadPlan,
    limit: number,
  ): Promise<PlatformError | null> {
    const limiter = pLimit(this.d.config.concurrency);
    let failure: PlatformError | null = null;
    const fetched = await Promise.all(
      plan.targets.map((t) =>
        limiter(async () => {
          try {
            const posts = await this.d.tokens.use(plan.row, (tokens) =>
              plan.engagement.listPosts(tokens, { destination: t.destination, limit }),
            );
            this.#listed.set(this.#listedKey(workspaceId, platform, t.source), this.d.clock().getTime());
            return posts.map((post) => ({ post, sourcePageId: t.source }));
          } catch (err) {
            if (!(err instanceof PlatformError)) throw err;
            if (err.kind === 'permission' && plan.engagement.getMetrics) {
              const known = await this.#fromLedger(workspaceId, platform, plan, t, limit).catch((e: unknown) =>
                e instanceof PlatformError ? e : Promise.reject(e),
              );
              if (!(known instanceof PlatformError)) {
                this.#listed.set(this.#listedKey(workspaceId, platform, t.source), this.d.clock().getTime());
                return known;
              }
            }
            this.d.logger.warn({ platform, kind: err.kind, code: err.code }, 'reading recent posts failed');
            failure ??= err;
            return [];
          }
        }),
      ),
    );
    await this.d.store.savePosts(workspaceId, platform, fetched.flat(), this.d.clock());
    return failure;
  }

  /** The posts Herald published to one source, with the numbers the network gives for each (deleted ones left out). */
  async #fromLedger(
    workspaceId: string,
    platform: Platform,
    plan: ReadPlan,
    t: ReadPlan['targets'][number],
    limit: number,
  ): Promise<{ post: RemotePost; sourcePageId: string | null }[]> {
    const published = await this.d.store.publishedTo(workspaceId, platform, t.source, limit);
    const limiter = pLimit(this.d.config.concurrency);
    const out = await Promise.all(
      published.map((p) =>
        limiter(async () => {
          const metrics = await this.d.tokens.use(plan.row, (tokens) =>
            plan.engagement.getMetrics!(tokens, { destination: t.destination, postId: p.platformPostId }),
          );
          if (!metrics) return null;
          return {
            post: publishedAsRemote(p, t.source, metrics, await this.#publishedImages(workspaceId, p)),
            sourcePageId: t.source,
          };
        }),
      ),
    );
    return out.filter((x): x is { post: RemotePost; sourcePageId: string | null } => x !== null);
  }

  stale(at: Date | null, seconds: number): boolean {
    return !at || this.d.clock().getTime() - at.getTime() >= seconds * 1000;
  }

  async records(rows: PostRow[], stats: boolean): Promise<PostRecord[]> {
    const ledger = await this.d.store.ledgerPostIds(rows.flatMap((r) => (r.postTargetId ? [r.postTargetId] : [])));
    return rows.map((r) => ({
      post_id: r.platformPostId,
      commentary: r.commentary,
      published_at: iso(r.publishedAt),
      type: r.postType,
      images: r.images as unknown[],
      videos: r.videos ?? null,
      permalink: r.permalink,
      ...(stats
        ? {
            like_count: r.likes,
            comment_count: r.comments,
            share_count: r.shares,
            impression_count: r.impressions,
            reach: r.reach,
          }
        : {}),
      source_page_id: r.sourcePageId,
      ai_watcher_enabled: false,
      herald_post_id: r.postTargetId ? (ledger.get(r.postTargetId) ?? null) : null,
      last_refreshed_at: r.refreshedAt.toISOString(),
    }));
  }

  /** A post this workspace knows (stored, or published by Herald), with where it lives; 404 otherwise. */
  async known(workspaceId: string, platform: Platform, postId: string, pageId: string | undefined): Promise<Known> {
    const row = await this.connection(workspaceId, platform);
    if (!row) throw new AppError('bad_request', { error: 'NOT_CONNECTED', message: notConnected(this.name(platform)) });
    const engagement = this.d.registry.get(platform).engagement;
    if (!engagement)
      throw new AppError('bad_request', {
        error: 'PLATFORM_NOT_SUPPORTED',
        message: `Reading ${this.name(platform)} posts is not available.`,
      });
    const stored = await this.d.store.post(workspaceId, platform, postId);
    const target = stored ? undefined : await this.d.store.publishedTarget(workspaceId, platform, postId);
    if (!stored && !target)
      throw new AppError('not_found', {
        error: 'POST_NOT_FOUND',
        message: `No ${this.name(platform)} post "${postId}" in this workspace.`,
      });
    const reads = this.reads(platform);
    const source = stored
      ? stored.sourcePageId
      : target?.destinationKind && target.destinationKind !== 'personal'
        ? target.destinationId
        : null;
    if (pageId !== undefined && source !== null && pageId !== source)
      throw new AppError('not_found', {
        error: 'POST_NOT_FOUND',
        message: `No ${this.name(platform)} post "${postId}" on ${pageId} in this workspace.`,
      });
    const destination = source !== null && reads ? { kind: reads.kind, id: source } : undefined;
    return { row, engagement, destination, stored, published: target };
  }

  platformFailure(platform: Platform, err: PlatformError): AppError {
    if (err.kind === 'rate_limited') {
      return new AppError(
        'APIKEY_RATE_LIMIT',
        { error: 'RATE_LIMITED', message: `${this.name(platform)} is rate limiting these calls: ${err.message}` },
        err.retryAfterSeconds ? { headers: { 'retry-after': String(err.retryAfterSeconds) } } : {},
      );
    }
    return new AppError(
      'bad_gateway',
      { error: wireError(err), message: `${this.name(platform)} refused: ${err.message}` },
      { retryable: err.retryable },
    );
  }

  async call<T>(
    platform: Platform,
    row: ConnectionRow,
    fn: (tokens: Parameters<Parameters<TokenKeeper['use']>[1]>[0]) => Promise<T>,
  ): Promise<T> {
    try {
      return await this.d.tokens.use(row, (tokens) => fn(tokens));
    } catch (err) {
      if (err instanceof PlatformError) throw this.platformFailure(platform, err);
      throw err;
    }
  }

  /** The network will not show a post Herald published: its images are the ones Herald published, from the library. */
  async #publishedImages(workspaceId: string, p: PublishedPost): Promise<RemotePost['images']> {
    const mediaUrl = this.d.mediaUrl;
    if (!mediaUrl) return [];
    const stored = await this.d.store.imagesOf(workspaceId, p.mediaIds);
    return stored.map((i) => ({
      url: mediaUrl(i.storageKey),
      width: i.width ?? undefined,
      height: i.height ?? undefined,
    }));
  }

  /**
   * Reads one known post from the network and stores it (with a snapshot of its numbers); 404 when the network no
   * longer has it. A post the grant may not read, but whose numbers the network gives (a LinkedIn member's own post
   * without r_member_social), is what Herald stored or published of it with fresh numbers.
   */
  async readPost(workspaceId: string, platform: Platform, postId: string, k: Known): Promise<PostRow> {
    const post = await this.call(platform, k.row, async (t) => {
      try {
        return await k.engagement.getPost(t, { destination: k.destination, postId });
      } catch (err) {
        if (
          !(err instanceof PlatformError) ||
          err.kind !== 'permission' ||
          !k.engagement.getMetrics ||
          !(k.stored || k.published)
        )
          throw err;
        const metrics = await k.engagement.getMetrics(t, { destination: k.destination, postId });
        if (!metrics) return null;
        return k.stored
          ? storedAsRemote(k.stored, metrics)
          : publishedAsRemote(
              k.published!,
              k.destination?.id ?? null,
              metrics,
              await this.#publishedImages(workspaceId, k.published!),
            );
      }
    });
    if (!post) {
      await this.d.store.markDeleted(workspaceId, platform, postId, this.d.clock());
      throw new AppError('not_found', {
        error: 'POST_NOT_FOUND',
        message: `${this.name(platform)} no longer has post "${postId}".`,
      });
    }
    const [saved] = await this.d.store.savePosts(
      workspaceId,
      platform,
      [{ post, sourcePageId: k.destination?.id ?? null }],
      this.d.clock(),
    );
    return saved!;
  }

  comments(platform: Platform): Comments | undefined {
    return this.d.registry.get(platform).engagement?.comments;
  }

  /** Reads one post's comments from the network and stores them; the error, if any. */
  async syncPost(
    workspaceId: string,
    platform: Platform,
    row: ConnectionRow,
    comments: Comments,
    post: PostRow,
    perPost: number,
  ): Promise<PlatformError | null> {
    const reads = this.reads(platform);
    const destination = post.sourcePageId !== null && reads ? { kind: reads.kind, id: post.sourcePageId } : undefined;
    try {
      const page = await this.d.tokens.use(row, (t) =>
        comments.list(t, { destination, postId: post.platformPostId, limit: perPost }),
      );
      await this.d.store.saveComments(workspaceId, platform, post, page.comments, this.d.clock(), {
        ownAuthor: accountAuthor(row),
      });
      if (page.disabled !== undefined && page.disabled !== post.commentsDisabled)
        await this.d.store.setCommentsDisabled(post.id, page.disabled);
      return null;
    } catch (err) {
      if (!(err instanceof PlatformError)) throw err;
      this.d.logger.warn({ platform, kind: err.kind, code: err.code }, 'reading comments failed');
      return err;
    }
  }

  requireComments(platform: Platform): Comments {
    const engagement = this.d.registry.get(platform).engagement;
    if (!engagement?.comments) {
      throw new AppError('bad_request', {
        error: 'PLATFORM_NOT_SUPPORTED',
        message: engagement?.commentsUnavailable ?? `${this.name(platform)} comments are not available.`,
      });
    }
    return engagement.comments;
  }
}

/** A post this workspace knows, where it lives, and what Herald stored or published of it. */
export interface Known {
  row: ConnectionRow;
  engagement: Engagement;
  destination: PublishDestination | undefined;
  stored: PostRow | undefined;
  published: PublishedPost | undefined;
}

// What a workspace sees of its posts after publishing: the posts read model (recent posts with their numbers, per
// network), one post refreshed, its numbers over time, deletion, the comments inbox with replies, and analytics.
// Reads come from the database; a refresh asks the network through the connection's tokens and stores the answer.
// A network is only ever asked about objects this workspace has seen (its stored posts and synced comments), so a
// guessed id never reaches another workspace's data.
import { LRUCache } from 'lru-cache';
import pLimit from 'p-limit';
import type { Logger } from 'pino';
import type { EngagementConfig } from '../config.ts';
import type { ConnectionRow, ConnectionStore } from '../connections/store.ts';
import type { TokenKeeper } from '../connections/tokens.ts';
import { AppError } from '../errors.ts';
import { readTargetId, type ReadTargets } from '../platforms/contract.ts';
import type { Comments, Engagement, RemoteComment, RemotePost } from '../platforms/engagement.ts';
import type { PublishDestination } from '../platforms/publishing.ts';
import type { PlatformRegistry } from '../platforms/registry.ts';
import type { Platform } from '../platforms/slugs.ts';
import { PlatformError } from '../platforms/types.ts';
import type { TextLimit } from '../platforms/types.ts';
import { countText } from '../publishing/index.ts';
import type { CommentView, EngagementStore, PostRow, PublishedPost, Sources } from './store.ts';

export interface EngagementDeps {
  store: EngagementStore;
  registry: PlatformRegistry;
  connections: ConnectionStore;
  tokens: TokenKeeper;
  clock: () => Date;
  logger: Logger;
  config: EngagementConfig;
  /** The public URL of a stored media object (the images of posts Herald published, listed from its ledger). */
  mediaUrl?: (storageKey: string) => string;
}

/** The destinations filter of a read, by the network's query parameter (facebook_page_ids …): ids as given. */
export type DestinationFilter = Partial<Record<string, string[]>>;

interface ReadPlan {
  row: ConnectionRow;
  engagement: Engagement;
  /** Each source to read: the account itself (destination undefined) or one destination. */
  targets: { destination: PublishDestination | undefined; source: string | null }[];
  sources: Sources;
  /** Ids the caller named that are not among the account's destinations. */
  unknown: string[];
}

export interface PostRecord {
  post_id: string;
  commentary: string | null;
  published_at: string | null;
  type: string;
  images: unknown[];
  videos: unknown;
  permalink: string | null;
  like_count?: number;
  comment_count?: number;
  share_count?: number;
  impression_count?: number;
  reach?: number | null;
  source_page_id: string | null;
  ai_watcher_enabled: boolean;
  /** The ledger id of the Herald post that published it, when Herald did. */
  herald_post_id: string | null;
  last_refreshed_at: string;
}

export interface PostsSlice {
  posts: PostRecord[];
  source: 'database' | 'api' | null;
  last_updated: string | null;
  message?: string;
  error?: string;
}

export interface CommentRecord {
  id: string;
  type: 'comment' | 'reply';
  text: string;
  author_name: string;
  commentor_name: string;
  author_id: string | null;
  author_profile_image_url: string | null;
  created_at: string | null;
  like_count: number;
  reply_count: number;
  parent_id: string | null;
  replies: CommentRecord[];
  platform_meta: { is_hidden: boolean };
}

export interface CommentsPostEntry {
  post_id: string;
  page_id: string | null;
  comments_disabled: boolean;
  comment_status: 'ok' | 'error' | 'disabled';
  comment_status_message: string | null;
  comments: CommentRecord[];
  [key: string]: unknown;
}

export interface CommentsSlice {
  posts: CommentsPostEntry[];
  last_updated: string | null;
  message?: string;
  error?: string;
}

export interface AnalyticsFigures {
  post_count: number;
  total_likes: number;
  total_comments: number;
  total_reach: number;
  average_engagement_rate: number;
  message: string | null;
  error: string | null;
}

/** How many recent posts per source analytics reads from a network that was never read (GET /unified/posts' default). */
const ANALYTICS_READ_LIMIT = 10;

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** (likes + comments) / reach, capped at 1; 0 without reach. */
export function engagementRate(likes: number, comments: number, reach: number): number {
  if (reach <= 0) return 0;
  return Math.min(1, (likes + comments) / reach);
}

export function notConnected(name: string): string {
  return `${name} not connected for this workspace.`;
}

function wireError(err: PlatformError): string {
  return err.kind === 'reauth_required' ? 'NEEDS_RECONNECT' : err.kind === 'rate_limited' ? 'RATE_LIMITED' : 'PLATFORM_ERROR';
}

export class EngagementService {
  readonly #d: EngagementDeps;
  /**
   * When each source's post list was last read from the network (ms), by workspace, network and source: a source with
   * no posts at all has no stored row to date it, and must not be asked again on every read.
   */
  readonly #listed = new LRUCache<string, number>({ max: 50_000 });

  constructor(deps: EngagementDeps) {
    this.#d = deps;
  }

  #listedKey(workspaceId: string, platform: string, source: string | null): string {
    return `${workspaceId}|${platform}|${source ?? ''}`;
  }

  /** When every source of the plan was last listed: the oldest of their newest refreshes; null if one never was. */
  #lastListed(workspaceId: string, platform: string, sources: Sources, rows: readonly PostRow[]): Date | null {
    let oldest: number | null = null;
    for (const source of sources) {
      let newest = this.#listed.get(this.#listedKey(workspaceId, platform, source)) ?? null;
      for (const r of rows) if (r.sourcePageId === source && (newest === null || r.refreshedAt.getTime() > newest)) newest = r.refreshedAt.getTime();
      if (newest === null) return null;
      if (oldest === null || newest < oldest) oldest = newest;
    }
    return oldest === null ? null : new Date(oldest);
  }

  #name(platform: Platform): string {
    return this.#d.registry.get(platform).displayName;
  }

  #reads(platform: Platform): ReadTargets | undefined {
    return this.#d.registry.network(platform).reads;
  }

  /** The network's read parameter names (for the routes' query schemas). */
  static readParams(registry: Pick<PlatformRegistry, 'networks'>): ReadTargets[] {
    return registry.networks.flatMap((n) => (n.reads ? [n.reads] : []));
  }

  async #connection(workspaceId: string, platform: Platform, all?: readonly ConnectionRow[]): Promise<ConnectionRow | undefined> {
    const rows = all ? all.filter((r) => r.platform === platform) : await this.#d.connections.list(workspaceId, platform);
    return rows.find((r) => r.status === 'connected') ?? rows[0];
  }

  /** Which sources of this account a read covers, from the network's read rules and the caller's filter. */
  #plan(platform: Platform, row: ConnectionRow, engagement: Engagement, filter: DestinationFilter): ReadPlan {
    const reads = this.#reads(platform);
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
        if (!reads.filterExcludesAccount && reads.byDefault !== 'destinations' && !targets.length && !unknown.length) targets.push({ destination: undefined, source: null });
      } else {
        if (reads.byDefault !== 'destinations') targets.push({ destination: undefined, source: null });
        if (reads.byDefault !== 'account') for (const d of own) targets.push({ destination: { kind: reads.kind, id: d.id }, source: d.id });
      }
    }
    return { row, engagement, targets, sources: targets.map((t) => t.source), unknown };
  }

  #unknownMessage(platform: Platform, unknown: string[]): string | undefined {
    if (!unknown.length) return undefined;
    const reads = this.#reads(platform);
    return `${this.#name(platform)}: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not among the connected account's ${reads?.kind ?? 'destination'}s.`;
  }

  /**
   * Asks the network for each source's recent posts and stores them; the first error, if any. A source the network
   * will not list for Herald's grant (a LinkedIn member's own posts without r_member_social) falls back to the posts
   * Herald published there, whose numbers the network still gives (`getMetrics`).
   */
  async #refreshPosts(workspaceId: string, platform: Platform, plan: ReadPlan, limit: number): Promise<PlatformError | null> {
    const limiter = pLimit(this.#d.config.concurrency);
    let failure: PlatformError | null = null;
    const fetched = await Promise.all(
      plan.targets.map((t) =>
        limiter(async () => {
          try {
            const posts = await this.#d.tokens.use(plan.row, (tokens) => plan.engagement.listPosts(tokens, { destination: t.destination, limit }));
            this.#listed.set(this.#listedKey(workspaceId, platform, t.source), this.#d.clock().getTime());
            return posts.map((post) => ({ post, sourcePageId: t.source }));
          } catch (err) {
            if (!(err instanceof PlatformError)) throw err;
            if (err.kind === 'permission' && plan.engagement.getMetrics) {
              const known = await this.#fromLedger(workspaceId, platform, plan, t, limit).catch((e: unknown) => (e instanceof PlatformError ? e : Promise.reject(e)));
              if (!(known instanceof PlatformError)) {
                this.#listed.set(this.#listedKey(workspaceId, platform, t.source), this.#d.clock().getTime());
                return known;
              }
            }
            this.#d.logger.warn({ platform, kind: err.kind, code: err.code }, 'reading recent posts failed');
            failure ??= err;
            return [];
          }
        }),
      ),
    );
    await this.#d.store.savePosts(workspaceId, platform, fetched.flat(), this.#d.clock());
    return failure;
  }

  /** The posts Herald published to one source, with the numbers the network gives for each (deleted ones left out). */
  async #fromLedger(workspaceId: string, platform: Platform, plan: ReadPlan, t: ReadPlan['targets'][number], limit: number): Promise<{ post: RemotePost; sourcePageId: string | null }[]> {
    const published = await this.#d.store.publishedTo(workspaceId, platform, t.source, limit);
    const limiter = pLimit(this.#d.config.concurrency);
    const out = await Promise.all(
      published.map((p) =>
        limiter(async () => {
          const metrics = await this.#d.tokens.use(plan.row, (tokens) => plan.engagement.getMetrics!(tokens, { destination: t.destination, postId: p.platformPostId }));
          if (!metrics) return null;
          return { post: publishedAsRemote(p, t.source, metrics, await this.#publishedImages(workspaceId, p)), sourcePageId: t.source };
        }),
      ),
    );
    return out.filter((x): x is { post: RemotePost; sourcePageId: string | null } => x !== null);
  }

  #stale(at: Date | null, seconds: number): boolean {
    return !at || this.#d.clock().getTime() - at.getTime() >= seconds * 1000;
  }

  async #records(rows: PostRow[], stats: boolean): Promise<PostRecord[]> {
    const ledger = await this.#d.store.ledgerPostIds(rows.flatMap((r) => (r.postTargetId ? [r.postTargetId] : [])));
    return rows.map((r) => ({
      post_id: r.platformPostId,
      commentary: r.commentary,
      published_at: iso(r.publishedAt),
      type: r.postType,
      images: r.images as unknown[],
      videos: r.videos ?? null,
      permalink: r.permalink,
      ...(stats ? { like_count: r.likes, comment_count: r.comments, share_count: r.shares, impression_count: r.impressions, reach: r.reach } : {}),
      source_page_id: r.sourcePageId,
      ai_watcher_enabled: false,
      herald_post_id: r.postTargetId ? (ledger.get(r.postTargetId) ?? null) : null,
      last_refreshed_at: r.refreshedAt.toISOString(),
    }));
  }

  /**
   * GET /unified/posts: one slice per network asked for, from the database in three statements whatever the number
   * of networks (connections, posts, their ledger links); a network is asked only when its list is past its
   * freshness window or the caller asks for a refresh.
   */
  async posts(
    workspaceId: string,
    platforms: Platform[],
    q: { limit: number; stats: boolean; refreshPosts: boolean; refreshStats: boolean; filter: DestinationFilter },
  ): Promise<Record<string, PostsSlice>> {
    const out: Record<string, PostsSlice> = {};
    const connections = await this.#d.connections.list(workspaceId);
    const plans = new Map<Platform, ReadPlan>();
    for (const platform of platforms) {
      const row = await this.#connection(workspaceId, platform, connections);
      if (!row) {
        out[platform] = { posts: [], source: null, last_updated: null, message: notConnected(this.#name(platform)), error: 'NOT_CONNECTED' };
        continue;
      }
      const engagement = this.#d.registry.get(platform).engagement;
      if (!engagement) {
        out[platform] = { posts: [], source: null, last_updated: null, message: `Reading ${this.#name(platform)} posts is not available.`, error: 'NOT_SUPPORTED' };
        continue;
      }
      plans.set(platform, this.#plan(platform, row, engagement, q.filter));
    }
    const wanted = (only?: Platform[]) => [...plans].filter(([p]) => !only || only.includes(p)).map(([platform, plan]) => ({ platform, sources: plan.sources }));
    const stored = await this.#d.store.recentPostsOf(workspaceId, wanted(), q.limit);
    const refresh = [...plans]
      .filter(([p, plan]) => plan.targets.length && (q.refreshPosts || q.refreshStats || this.#stale(this.#lastListed(workspaceId, p, plan.sources, stored.get(p) ?? []), this.#d.config.postsFreshSeconds)))
      .map(([p]) => p);
    const failures = new Map<Platform, PlatformError | null>();
    if (refresh.length) {
      await Promise.all(refresh.map(async (p) => failures.set(p, await this.#refreshPosts(workspaceId, p, plans.get(p)!, q.limit))));
      for (const [p, rows] of await this.#d.store.recentPostsOf(workspaceId, wanted(refresh), q.limit)) stored.set(p, rows);
    }
    const all = [...stored.values()].flat();
    const records = await this.#records(all, q.stats);
    const recordOf = new Map(records.map((r, n) => [all[n]!.id, r]));
    for (const [platform, plan] of plans) {
      const rows = stored.get(platform) ?? [];
      const failure = failures.get(platform) ?? null;
      const updated = rows.reduce<Date | null>((a, r) => (!a || r.refreshedAt > a ? r.refreshedAt : a), null);
      const slice: PostsSlice = { posts: rows.map((r) => recordOf.get(r.id)!), source: failures.has(platform) && !failure ? 'api' : 'database', last_updated: iso(updated) };
      const message = [failure ? `${this.#name(platform)} could not be refreshed: ${failure.message}` : undefined, this.#unknownMessage(platform, plan.unknown)].filter(Boolean).join(' ');
      if (message) slice.message = message;
      if (failure) slice.error = wireError(failure);
      out[platform] = slice;
    }
    return Object.fromEntries(platforms.map((p) => [p, out[p]!]));
  }

  /** A post this workspace knows (stored, or published by Herald), with where it lives; 404 otherwise. */
  async #known(workspaceId: string, platform: Platform, postId: string, pageId: string | undefined): Promise<Known> {
    const row = await this.#connection(workspaceId, platform);
    if (!row) throw new AppError('bad_request', { error: 'NOT_CONNECTED', message: notConnected(this.#name(platform)) });
    const engagement = this.#d.registry.get(platform).engagement;
    if (!engagement) throw new AppError('bad_request', { error: 'PLATFORM_NOT_SUPPORTED', message: `Reading ${this.#name(platform)} posts is not available.` });
    const stored = await this.#d.store.post(workspaceId, platform, postId);
    const target = stored ? undefined : await this.#d.store.publishedTarget(workspaceId, platform, postId);
    if (!stored && !target) throw new AppError('not_found', { error: 'POST_NOT_FOUND', message: `No ${this.#name(platform)} post "${postId}" in this workspace.` });
    const reads = this.#reads(platform);
    const source = stored ? stored.sourcePageId : target?.destinationKind && target.destinationKind !== 'personal' ? target.destinationId : null;
    if (pageId !== undefined && source !== null && pageId !== source) throw new AppError('not_found', { error: 'POST_NOT_FOUND', message: `No ${this.#name(platform)} post "${postId}" on ${pageId} in this workspace.` });
    const destination = source !== null && reads ? { kind: reads.kind, id: source } : undefined;
    return { row, engagement, destination, stored, published: target };
  }

  #platformFailure(platform: Platform, err: PlatformError): AppError {
    if (err.kind === 'rate_limited') {
      return new AppError('APIKEY_RATE_LIMIT', { error: 'RATE_LIMITED', message: `${this.#name(platform)} is rate limiting these calls: ${err.message}` }, err.retryAfterSeconds ? { headers: { 'retry-after': String(err.retryAfterSeconds) } } : {});
    }
    return new AppError('bad_gateway', { error: wireError(err), message: `${this.#name(platform)} refused: ${err.message}` }, { retryable: err.retryable });
  }

  async #call<T>(platform: Platform, row: ConnectionRow, fn: (tokens: Parameters<Parameters<TokenKeeper['use']>[1]>[0]) => Promise<T>): Promise<T> {
    try {
      return await this.#d.tokens.use(row, (tokens) => fn(tokens));
    } catch (err) {
      if (err instanceof PlatformError) throw this.#platformFailure(platform, err);
      throw err;
    }
  }

  /** GET /unified/posts/{id}: always asks the network for this one post. */
  async refreshPost(workspaceId: string, platform: Platform, postId: string, pageId: string | undefined): Promise<PostRecord> {
    const k = await this.#known(workspaceId, platform, postId, pageId);
    const saved = await this.#readPost(workspaceId, platform, postId, k);
    return (await this.#records([saved], true))[0]!;
  }

  /** The network will not show a post Herald published: its images are the ones Herald published, from the library. */
  async #publishedImages(workspaceId: string, p: PublishedPost): Promise<RemotePost['images']> {
    const mediaUrl = this.#d.mediaUrl;
    if (!mediaUrl) return [];
    const stored = await this.#d.store.imagesOf(workspaceId, p.mediaIds);
    return stored.map((i) => ({ url: mediaUrl(i.storageKey), width: i.width ?? undefined, height: i.height ?? undefined }));
  }

  /**
   * Reads one known post from the network and stores it (with a snapshot of its numbers); 404 when the network no
   * longer has it. A post the grant may not read, but whose numbers the network gives (a LinkedIn member's own post
   * without r_member_social), is what Herald stored or published of it with fresh numbers.
   */
  async #readPost(workspaceId: string, platform: Platform, postId: string, k: Known): Promise<PostRow> {
    const post = await this.#call(platform, k.row, async (t) => {
      try {
        return await k.engagement.getPost(t, { destination: k.destination, postId });
      } catch (err) {
        if (!(err instanceof PlatformError) || err.kind !== 'permission' || !k.engagement.getMetrics || !(k.stored || k.published)) throw err;
        const metrics = await k.engagement.getMetrics(t, { destination: k.destination, postId });
        if (!metrics) return null;
        return k.stored ? storedAsRemote(k.stored, metrics) : publishedAsRemote(k.published!, k.destination?.id ?? null, metrics, await this.#publishedImages(workspaceId, k.published!));
      }
    });
    if (!post) {
      await this.#d.store.markDeleted(workspaceId, platform, postId, this.#d.clock());
      throw new AppError('not_found', { error: 'POST_NOT_FOUND', message: `${this.#name(platform)} no longer has post "${postId}".` });
    }
    const [saved] = await this.#d.store.savePosts(workspaceId, platform, [{ post, sourcePageId: k.destination?.id ?? null }], this.#d.clock());
    return saved!;
  }

  /**
   * GET /unified/posts/{id}/metrics: the numbers of every refresh, oldest first. A post Herald published that was
   * never read since (just published) is read once first, so its series starts.
   */
  async metrics(workspaceId: string, platform: Platform, postId: string) {
    const stored = (await this.#d.store.post(workspaceId, platform, postId)) ?? (await this.#readPost(workspaceId, platform, postId, await this.#known(workspaceId, platform, postId, undefined)));
    const series = await this.#d.store.snapshots(workspaceId, stored.id);
    return series.map((s) => ({ at: s.takenAt.toISOString(), like_count: s.likes, comment_count: s.comments, share_count: s.shares, impression_count: s.impressions, reach: s.reach }));
  }

  /** DELETE /unified/posts/{id}: deletes it on the network where the API allows; 409 with the reason otherwise. */
  async deletePost(workspaceId: string, platform: Platform, postId: string, pageId: string | undefined): Promise<void> {
    const k = await this.#known(workspaceId, platform, postId, pageId);
    if (!k.engagement.deletePost) {
      throw new AppError('conflict', { error: 'DELETE_NOT_SUPPORTED', message: k.engagement.deleteUnavailable ?? `${this.#name(platform)} posts cannot be deleted through its API.` });
    }
    await this.#call(platform, k.row, (t) => k.engagement.deletePost!(t, { destination: k.destination, postId }));
    await this.#d.store.markDeleted(workspaceId, platform, postId, this.#d.clock());
  }

  // ---- Comments ----

  #comments(platform: Platform): Comments | undefined {
    return this.#d.registry.get(platform).engagement?.comments;
  }

  /** Reads one post's comments from the network and stores them; the error, if any. */
  async #syncPost(workspaceId: string, platform: Platform, row: ConnectionRow, comments: Comments, post: PostRow, perPost: number): Promise<PlatformError | null> {
    const reads = this.#reads(platform);
    const destination = post.sourcePageId !== null && reads ? { kind: reads.kind, id: post.sourcePageId } : undefined;
    try {
      const page = await this.#d.tokens.use(row, (t) => comments.list(t, { destination, postId: post.platformPostId, limit: perPost }));
      await this.#d.store.saveComments(workspaceId, platform, post, page.comments, this.#d.clock());
      if (page.disabled !== undefined && page.disabled !== post.commentsDisabled) await this.#d.store.setCommentsDisabled(post.id, page.disabled);
      return null;
    } catch (err) {
      if (!(err instanceof PlatformError)) throw err;
      this.#d.logger.warn({ platform, kind: err.kind, code: err.code }, 'reading comments failed');
      return err;
    }
  }

  #tree(rows: CommentView[], perPost: number): CommentRecord[] {
    const record = (c: CommentView): CommentRecord => ({
      id: c.platformCommentId,
      type: c.parentCommentId ? 'reply' : 'comment',
      text: c.text,
      author_name: c.authorName,
      commentor_name: c.authorName,
      author_id: c.authorId,
      author_profile_image_url: c.authorAvatarUrl,
      created_at: iso(c.commentedAt),
      like_count: c.likeCount,
      reply_count: c.replyCount,
      parent_id: c.parentCommentId,
      replies: [],
      platform_meta: { is_hidden: c.hidden },
    });
    const byId = new Map(rows.map((c) => [c.platformCommentId, record(c)]));
    const top: CommentRecord[] = [];
    for (const c of rows) {
      const r = byId.get(c.platformCommentId)!;
      const parent = c.parentCommentId ? byId.get(c.parentCommentId) : undefined;
      if (parent) parent.replies.push(r);
      else if (!c.parentCommentId) top.push(r);
    }
    for (const r of byId.values()) r.reply_count = Math.max(r.reply_count, r.replies.length);
    // Newest top-level comments first; a thread's replies read oldest first.
    return top.reverse().slice(0, perPost);
  }

  #entry(platform: Platform, post: PostRow, comments: CommentRecord[], failure: PlatformError | null): CommentsPostEntry {
    const reads = this.#reads(platform);
    return {
      post_id: post.platformPostId,
      page_id: post.sourcePageId,
      ...(reads?.replyParam && post.sourcePageId ? { [reads.replyParam.replace(/_organization_id$/, '_page_id')]: post.sourcePageId } : {}),
      comments_disabled: post.commentsDisabled,
      comment_status: failure ? 'error' : post.commentsDisabled ? 'disabled' : 'ok',
      comment_status_message: failure ? failure.message : post.commentsDisabled ? 'Comments are turned off on this post.' : null,
      comments,
    };
  }

  /**
   * GET /unified/comments: comments on the last `limit` posts per network. Served from the database in three
   * statements whatever the number of networks (connections, posts, comments); the networks are asked only for post
   * lists past their freshness window and comments past theirs (or all comments with `forceRefresh`).
   */
  async inbox(
    workspaceId: string,
    platforms: Platform[],
    q: { limit: number; perPost: number; forceRefresh: boolean; filter: DestinationFilter },
  ): Promise<Record<string, CommentsSlice>> {
    const out: Record<string, CommentsSlice> = {};
    const connections = await this.#d.connections.list(workspaceId);
    const plans = new Map<Platform, { plan: ReadPlan; comments: Comments }>();
    for (const platform of platforms) {
      const row = await this.#connection(workspaceId, platform, connections);
      if (!row) {
        out[platform] = { posts: [], last_updated: null, message: notConnected(this.#name(platform)), error: 'NOT_CONNECTED' };
        continue;
      }
      const engagement = this.#d.registry.get(platform).engagement;
      if (!engagement?.comments) {
        out[platform] = { posts: [], last_updated: null, message: engagement?.commentsUnavailable ?? `${this.#name(platform)} comments are not available.`, error: 'NOT_SUPPORTED' };
        continue;
      }
      plans.set(platform, { plan: this.#plan(platform, row, engagement, q.filter), comments: engagement.comments });
    }
    const wanted = (only?: Platform[]) => [...plans].filter(([p]) => !only || only.includes(p)).map(([platform, { plan }]) => ({ platform, sources: plan.sources }));
    const stored = await this.#d.store.recentPostsOf(workspaceId, wanted(), q.limit);
    // The post lists are read from the network only when past their freshness window: force_refresh refreshes comments only.
    const listFailures = new Map<Platform, PlatformError>();
    const stale = [...plans].filter(([p, { plan }]) => this.#stale(this.#lastListed(workspaceId, p, plan.sources, stored.get(p) ?? []), this.#d.config.postsFreshSeconds)).map(([p]) => p);
    if (stale.length) {
      await Promise.all(
        stale.map(async (p) => {
          const failure = await this.#refreshPosts(workspaceId, p, plans.get(p)!.plan, q.limit);
          if (failure) listFailures.set(p, failure);
        }),
      );
      for (const [p, rows] of await this.#d.store.recentPostsOf(workspaceId, wanted(stale), q.limit)) stored.set(p, rows);
    }
    const failures = new Map<string, PlatformError>();
    let synced = false;
    await Promise.all(
      [...plans].map(async ([platform, { plan, comments }]) => {
        const limiter = pLimit(this.#d.config.concurrency);
        await Promise.all(
          (stored.get(platform) ?? []).map((p) =>
            limiter(async () => {
              if (p.commentsDisabled && !q.forceRefresh) return;
              if (!q.forceRefresh && !this.#stale(p.commentsSyncedAt, this.#d.config.commentsFreshSeconds)) return;
              synced = true;
              const err = await this.#syncPost(workspaceId, platform, plan.row, comments, p, q.perPost);
              if (err) failures.set(p.id, err);
            }),
          ),
        );
      }),
    );
    const allPosts = [...stored.values()].flat();
    // What a sync changed on the posts (when their comments were synced, whether comments are off).
    const fresh = synced ? new Map((await this.#d.store.postsByIds(allPosts.map((p) => p.id))).map((p) => [p.id, p])) : undefined;
    const byPost = new Map<string, CommentView[]>();
    for (const c of await this.#d.store.commentsOf(workspaceId, allPosts.map((p) => p.id))) {
      const list = byPost.get(c.networkPostId);
      if (list) list.push(c);
      else byPost.set(c.networkPostId, [c]);
    }
    for (const [platform, { plan }] of plans) {
      const posts = (stored.get(platform) ?? []).map((p) => fresh?.get(p.id) ?? p);
      const slice: CommentsSlice = {
        posts: posts.map((p) => this.#entry(platform, p, this.#tree(byPost.get(p.id) ?? [], q.perPost), failures.get(p.id) ?? null)),
        last_updated: iso(posts.reduce<Date | null>((a, p) => (p.commentsSyncedAt && (!a || p.commentsSyncedAt > a) ? p.commentsSyncedAt : a), null)),
      };
      const firstFailure = listFailures.get(platform) ?? posts.map((p) => failures.get(p.id)).find((f) => f !== undefined) ?? null;
      const message = [firstFailure ? `${this.#name(platform)}: ${firstFailure.message}` : undefined, this.#unknownMessage(platform, plan.unknown)].filter(Boolean).join(' ');
      if (message) slice.message = message;
      if (firstFailure) slice.error = wireError(firstFailure);
      out[platform] = slice;
    }
    return Object.fromEntries(platforms.map((p) => [p, out[p]!]));
  }

  /** GET /unified/comments/by-post: always refreshes this post's comments. */
  async byPost(workspaceId: string, platform: Platform, postId: string, perPost: number, pageId: string | undefined): Promise<CommentsPostEntry> {
    const comments = this.#requireComments(platform);
    const k = await this.#known(workspaceId, platform, postId, pageId);
    const stored = k.stored ?? (await this.#readPost(workspaceId, platform, postId, k));
    const failure = await this.#syncPost(workspaceId, platform, k.row, comments, stored, perPost);
    // The network failing answers 502 (429 when throttling) unless there is something synced to show; a grant that
    // may not read these comments (a LinkedIn member's post without r_member_social) is the post's comment status,
    // as in the inbox.
    if (failure && !stored.commentsSyncedAt && !grantRefusal(failure)) throw this.#platformFailure(platform, failure);
    const [fresh] = await this.#d.store.postsByIds([stored.id]);
    const rows = await this.#d.store.commentsOf(workspaceId, [stored.id]);
    return this.#entry(platform, fresh!, this.#tree(rows, perPost), failure);
  }

  #requireComments(platform: Platform): Comments {
    const engagement = this.#d.registry.get(platform).engagement;
    if (!engagement?.comments) {
      throw new AppError('bad_request', { error: 'PLATFORM_NOT_SUPPORTED', message: engagement?.commentsUnavailable ?? `${this.#name(platform)} comments are not available.` });
    }
    return engagement.comments;
  }

  /** GET /unified/comments/replies: the replies under one synced comment, refreshed when asked or stale. */
  async replies(workspaceId: string, platform: Platform, commentId: string, q: { postId?: string | undefined; limit: number; forceRefresh: boolean }) {
    const comments = this.#requireComments(platform);
    const found = await this.#d.store.comment(workspaceId, platform, commentId);
    if (!found || (q.postId !== undefined && found.post.platformPostId !== q.postId)) {
      throw new AppError('not_found', { error: 'COMMENT_NOT_FOUND', message: `No synced ${this.#name(platform)} comment "${commentId}" in this workspace.` });
    }
    const row = await this.#connection(workspaceId, platform);
    if (!row) throw new AppError('bad_request', { error: 'NOT_CONNECTED', message: notConnected(this.#name(platform)) });
    let failure: PlatformError | null = null;
    if (q.forceRefresh || this.#stale(found.comment.syncedAt, this.#d.config.commentsFreshSeconds)) {
      const reads = this.#reads(platform);
      const destination = found.post.sourcePageId !== null && reads ? { kind: reads.kind, id: found.post.sourcePageId } : undefined;
      try {
        const list = await this.#d.tokens.use(row, (t) =>
          comments.replies(t, { destination, postId: found.post.platformPostId, commentId, refs: found.comment.refs as Record<string, string>, limit: q.limit }),
        );
        await this.#d.store.saveComments(workspaceId, platform, found.post, list.map((r) => ({ ...r, parentId: r.parentId ?? commentId })), this.#d.clock(), false);
      } catch (err) {
        if (!(err instanceof PlatformError)) throw err;
        failure = err;
      }
    }
    const all = await this.#d.store.commentsOf(workspaceId, [found.post.id]);
    const tree = this.#tree(all, Number.MAX_SAFE_INTEGER);
    const find = (list: CommentRecord[]): CommentRecord | undefined => {
      for (const c of list) {
        if (c.id === commentId) return c;
        const inner = find(c.replies);
        if (inner) return inner;
      }
      return undefined;
    };
    return {
      post_id: found.post.platformPostId,
      page_id: found.post.sourcePageId,
      replies: (find(tree)?.replies ?? []).slice(0, q.limit),
      ...(failure ? { message: `${this.#name(platform)}: ${failure.message}`, error: wireError(failure) } : {}),
    };
  }

  /**
   * POST /unified/comments/reply: answers a comment this workspace has synced, as the connected account (or the
   * page / organization the post belongs to). The text is checked against the network's comment limit first.
   */
  async reply(workspaceId: string, platform: Platform, input: { commentId: string; postId?: string | undefined; pageId?: string | undefined; text: string }): Promise<{ replyId: string }> {
    const comments = this.#requireComments(platform);
    if (!input.text.trim()) throw new AppError('bad_request', { error: 'VALIDATION_ERROR', message: 'text must not be empty.' });
    const over = overLimit(input.text, comments.textLimit);
    if (over) throw new AppError('bad_request', { error: 'VALIDATION_ERROR', message: `${this.#name(platform)} comments are limited to ${over}.` });
    const found = await this.#d.store.comment(workspaceId, platform, input.commentId);
    if (!found || (input.postId !== undefined && input.postId !== found.post.platformPostId)) {
      throw new AppError('not_found', { error: 'COMMENT_NOT_FOUND', message: `No synced ${this.#name(platform)} comment "${input.commentId}" in this workspace. Sync comments first (GET /unified/comments).` });
    }
    const reads = this.#reads(platform);
    const page = found.post.sourcePageId;
    if (page !== null && reads?.replyParam) {
      if (input.pageId === undefined) throw new AppError('bad_request', { error: 'VALIDATION_ERROR', message: `${reads.replyParam} is required to reply on a ${this.#name(platform)} ${reads.kind}'s post.` });
      const given = readTargetId(reads, input.pageId);
      if (given !== page) throw new AppError('not_found', { error: 'COMMENT_NOT_FOUND', message: `No synced ${this.#name(platform)} comment "${input.commentId}" on ${reads.kind} ${given}.` });
    }
    const row = await this.#connection(workspaceId, platform);
    if (!row) throw new AppError('bad_request', { error: 'NOT_CONNECTED', message: notConnected(this.#name(platform)) });
    const destination = page !== null && reads ? { kind: reads.kind, id: page } : undefined;
    const { replyId } = await this.#call(platform, row, (t) =>
      comments.reply(t, { destination, postId: found.post.platformPostId, commentId: input.commentId, refs: found.comment.refs as Record<string, string>, text: input.text }),
    );
    const author = page !== null ? (((row.destinations ?? []) as { id: string; name: string }[]).find((d) => d.id === page)?.name ?? row.displayName) : row.displayName;
    const reply: RemoteComment = { id: replyId, parentId: input.commentId, text: input.text, authorName: author, authorId: page ?? row.accountId, authorAvatarUrl: row.avatarUrl, createdAt: this.#d.clock().toISOString(), likeCount: 0, replyCount: 0 };
    await this.#d.store.saveComments(workspaceId, platform, found.post, [reply], this.#d.clock(), false);
    return { replyId };
  }

  // ---- Background sync ----

  /**
   * Keeps one workspace's comments fresh: for each connected network with comments, its recent posts (refreshed when
   * stale) and their comments, at most `concurrency` calls in flight per network. A network that throttles stops for
   * this round. Counts what it wrote.
   */
  async syncWorkspace(workspaceId: string): Promise<{ posts: number; comments: number; failures: number }> {
    const rows = await this.#d.connections.list(workspaceId);
    const platforms = [...new Set(rows.filter((r) => r.status === 'connected').map((r) => r.platform as Platform))];
    const totals = { posts: 0, comments: 0, failures: 0 };
    await Promise.all(
      platforms.map(async (platform) => {
        const comments = this.#comments(platform);
        const engagement = this.#d.registry.get(platform).engagement;
        const row = rows.find((r) => r.platform === platform && r.status === 'connected')!;
        if (!engagement || !comments) return;
        const plan = this.#plan(platform, row, engagement, {});
        const known = (await this.#d.store.recentPostsOf(workspaceId, [{ platform, sources: plan.sources }], this.#d.config.syncPosts)).get(platform) ?? [];
        if (this.#stale(this.#lastListed(workspaceId, platform, plan.sources, known), this.#d.config.postsFreshSeconds)) {
          const failure = await this.#refreshPosts(workspaceId, platform, plan, this.#d.config.syncPosts);
          if (failure?.kind === 'rate_limited' || failure?.kind === 'reauth_required') {
            totals.failures++;
            return;
          }
        }
        const posts = ((await this.#d.store.recentPostsOf(workspaceId, [{ platform, sources: plan.sources }], this.#d.config.syncPosts)).get(platform) ?? []).filter((p) => !p.commentsDisabled);
        totals.posts += posts.length;
        const limiter = pLimit(this.#d.config.concurrency);
        let throttled = false;
        await Promise.all(
          posts.map((p) =>
            limiter(async () => {
              if (throttled) return;
              const err = await this.#syncPost(workspaceId, platform, row, comments, p, 50);
              if (err) {
                totals.failures++;
                if (err.kind === 'rate_limited' || err.kind === 'reauth_required') throttled = true;
              }
            }),
          ),
        );
        totals.comments += await this.#d.store.commentCount(workspaceId, posts.map((p) => p.id));
      }),
    );
    return totals;
  }

  /** How many comments and replies of one post this workspace has stored (no network call). */
  async storedCommentCount(workspaceId: string, platform: Platform, postId: string): Promise<number> {
    const post = await this.#d.store.post(workspaceId, platform, postId);
    return post ? this.#d.store.commentCount(workspaceId, [post.id]) : 0;
  }

  // ---- Analytics ----

  /** GET /unified/analytics: per network and in total, from the stored posts. */
  async analytics(workspaceId: string, platforms: Platform[], filter: DestinationFilter): Promise<{ platforms: Record<string, AnalyticsFigures>; totals: Omit<AnalyticsFigures, 'message' | 'error'>; lastUpdated: string | null }> {
    const rows = await this.#d.connections.list(workspaceId);
    const connected = new Set(rows.map((r) => r.platform));
    // The figures come from the stored posts, which a network whose list was never read (or is past its freshness
    // window), or was read before Herald last published there, has not got yet: read those first, as GET /unified/posts
    // would, so analytics right after publishing counts the post. A read that fails keeps the stored figures and says why.
    const readable = platforms.filter((p) => connected.has(p) && this.#d.registry.get(p).engagement);
    const times = await this.#d.store.publishedAndRead(workspaceId, readable);
    const behind = (p: Platform): boolean => {
      const t = times.get(p);
      const listed = this.#listed.get(this.#listedKey(workspaceId, p, null));
      return !!t && t.published.getTime() > Math.max(t.read?.getTime() ?? 0, listed ?? 0);
    };
    const read = (list: Platform[], refreshPosts: boolean) =>
      list.length ? this.posts(workspaceId, list, { limit: ANALYTICS_READ_LIMIT, stats: false, refreshPosts, refreshStats: false, filter }) : Promise.resolve({});
    const slices: Record<string, PostsSlice> = { ...(await read(readable.filter((p) => !behind(p)), false)), ...(await read(readable.filter(behind), true)) };
    const sourcesOf = (platform: string): Sources | undefined => {
      const reads = this.#reads(platform as Platform);
      const asked = reads ? (filter[reads.param] ?? []).map((id) => readTargetId(reads, id)) : [];
      return asked.length ? asked : undefined;
    };
    const figures = await this.#d.store.totals(workspaceId, platforms.filter((p) => connected.has(p)), sourcesOf);
    const out: Record<string, AnalyticsFigures> = {};
    const total = { post_count: 0, total_likes: 0, total_comments: 0, total_reach: 0 };
    let last: Date | null = null;
    for (const p of platforms) {
      const f = figures.get(p);
      if (!f) {
        out[p] = { post_count: 0, total_likes: 0, total_comments: 0, total_reach: 0, average_engagement_rate: 0, message: notConnected(this.#name(p)), error: 'NOT_CONNECTED' };
        continue;
      }
      const slice = slices[p];
      out[p] = { post_count: f.posts, total_likes: f.likes, total_comments: f.comments, total_reach: f.reach, average_engagement_rate: engagementRate(f.likes, f.comments, f.reach), message: slice?.error ? (slice.message ?? null) : null, error: slice?.error ?? null };
      total.post_count += f.posts;
      total.total_likes += f.likes;
      total.total_comments += f.comments;
      total.total_reach += f.reach;
      if (f.lastUpdated && (!last || f.lastUpdated > last)) last = f.lastUpdated;
    }
    return { platforms: out, totals: { ...total, average_engagement_rate: engagementRate(total.total_likes, total.total_comments, total.total_reach) }, lastUpdated: iso(last) };
  }
}

/** A post this workspace knows, where it lives, and what Herald stored or published of it. */
interface Known {
  row: ConnectionRow;
  engagement: Engagement;
  destination: PublishDestination | undefined;
  stored: PostRow | undefined;
  published: PublishedPost | undefined;
}

/** The network will not let this grant do it (a missing permission, a kind of object it cannot read): not a failure of the network. */
const grantRefusal = (err: PlatformError): boolean => err.kind === 'permission' || err.kind === 'unsupported';

const postTypeOf = (value: string): RemotePost['type'] => (['text', 'image', 'video', 'carousel'] as const).find((x) => x === value) ?? 'text';

/** A post Herald published, from the ledger, with the numbers the network gives. */
function publishedAsRemote(p: PublishedPost, source: string | null, metrics: RemotePost['metrics'], images: RemotePost['images']): RemotePost {
  return {
    postId: p.platformPostId,
    commentary: p.text,
    publishedAt: iso(p.publishedAt),
    type: postTypeOf(p.postType),
    images,
    video: null,
    permalink: p.permalink,
    sourcePageId: source,
    metrics,
  };
}

/** A stored post as the network would answer it, with these numbers. */
function storedAsRemote(row: PostRow, metrics: RemotePost['metrics']): RemotePost {
  return {
    postId: row.platformPostId,
    commentary: row.commentary,
    publishedAt: iso(row.publishedAt),
    type: postTypeOf(row.postType),
    images: row.images as RemotePost['images'],
    video: (row.videos ?? null) as RemotePost['video'],
    permalink: row.permalink,
    sourcePageId: row.sourcePageId,
    metrics,
    commentsDisabled: row.commentsDisabled,
  };
}

/** The limit a text breaks, in words ("1,250 characters"), or null when it fits. */
export function overLimit(text: string, limit: TextLimit): string | null {
  const unit = limit.unit === 'bytes' ? 'bytes' : 'characters';
  if (countText(text, limit.unit) > limit.max) return `${limit.max.toLocaleString('en')} ${unit}`;
  if (limit.maxBytes !== undefined && Buffer.byteLength(text, 'utf8') > limit.maxBytes) return `${limit.maxBytes.toLocaleString('en')} bytes`;
  return null;
}

// Feeds a workspace follows: saving them (the URL checked against the outbound address policy, the networks against
// the registry and the caller's key scope), and polling one: fetch (conditional), parse, remember the new items
// (the unique index settles races between pollers), and turn each into drafts or scheduled posts through the
// publishing service, with the same validation, credits and approval setting as any post made by an assistant. A
// failed poll keeps its error beside the last success and raises `feed.failed` once per failure streak.
import type { Logger } from 'pino';
import type { Principal } from '../auth/authenticate.ts';
import { parseScope, type Scope } from '../auth/scopes.ts';
import type { FeedsConfig } from '../config/feeds.ts';
import type { Db } from '../db/client.ts';
import { AppError, validationField } from '../errors.ts';
import { recordEvent } from '../events/index.ts';
import { UrlRefusedError } from '../net/outbound-policy.ts';
import type { PostBody } from '../publishing/index.ts';
import { FeedFetchError, type FeedFetcher } from './fetch.ts';
import { type FeedEntry, FeedParseError, parseItems } from './parse.ts';
import { checkQueueMode, DEFAULT_QUEUE, type FeedQueues, postToQueue } from './queue-mode.ts';
import type { FeedRow, FeedStore } from './store.ts';
import { DEFAULT_TEMPLATE, ideaOf, renderTemplate } from './template.ts';

export type FeedMode = 'draft' | 'schedule' | 'queue';

export interface FeedInput {
  url: string;
  networks: string[];
  mode?: FeedMode | undefined;
  /** queue mode: the posting queue (null or absent: the default queue). */
  queue?: string | null | undefined;
  schedule?: { delay_minutes?: number | undefined; from?: 'found' | 'published' | undefined } | undefined;
  template?: string | undefined;
  ai?: boolean | undefined;
  backfill?: boolean | undefined;
  paused?: boolean | undefined;
}

export interface PollResult {
  status: 'not_modified' | 'ok' | 'failed';
  /** Items seen for the first time. */
  seen: number;
  /** Items turned into posts (drafts, scheduled or held for approval). */
  posted: number;
  /** Items whose post was refused (the item keeps why). */
  failed: number;
  error?: string;
}

export interface FeedServiceDeps {
  db: Db;
  store: FeedStore;
  fetcher: FeedFetcher;
  /** The networks Herald knows. */
  slugs: () => readonly string[];
  planOf: (workspaceId: string) => Promise<string | undefined>;
  /** A post through publishing, held for approval when the workspace asks for it (Approvals.submitFromTool). */
  post: (p: Principal, body: PostBody) => Promise<{ status: number; body: object }>;
  /** The AI copy generator: one text per network, or its error. */
  copy: (p: Principal, idea: string, platforms: string[]) => Promise<Record<string, string | { error: string }>>;
  /** Posting queues, for feeds in queue mode. */
  queues?: FeedQueues | undefined;
  clock: () => Date;
  logger: Logger;
  config: FeedsConfig;
}

const MIN_LEAD_MS = 60_000;

/** The networks a principal's scope stands for, as stored on a feed ('' = every network). */
const scopeKey = (scope: Scope): string => (scope.full ? '' : [...scope.platforms].sort().join(','));

/** A scoped key sees the feeds posting only to its networks. */
const visibleTo = (scope: Scope, feed: FeedRow): boolean =>
  scope.full || feed.networks.every((n) => scope.platforms.has(n as never));

/** A feed's URL as events and logs show it: no query or fragment, which may carry a private feed's token. */
export const shownUrl = (raw: string): string => {
  if (!URL.canParse(raw)) return '';
  const u = new URL(raw);
  return `${u.origin}${u.pathname}`;
};

export class FeedService {
  readonly #d: FeedServiceDeps;

  constructor(deps: FeedServiceDeps) {
    this.#d = deps;
  }

  get store(): FeedStore {
    return this.#d.store;
  }

  async #checkUrl(raw: string): Promise<string> {
    try {
      return (await this.#d.fetcher.check(raw)).href;
    } catch (err) {
      if (err instanceof UrlRefusedError)
        throw validationField(['body', 'url'], `The feed URL is refused: ${err.message}`);
      throw err;
    }
  }

  #checkNetworks(networks: string[], scope: Scope): string[] {
    const list = [...new Set(networks.map((n) => n.trim().toLowerCase()).filter(Boolean))];
    if (!list.length) throw validationField(['body', 'networks'], 'A feed needs at least one network.');
    const known = this.#d.slugs();
    const unknown = list.filter((n) => !known.includes(n));
    if (unknown.length)
      throw validationField(
        ['body', 'networks'],
        `Unknown network(s): ${unknown.join(', ')}. Known: ${known.join(', ')}`,
      );
    const outside = list.filter((n) => !scope.platforms.has(n as never));
    if (outside.length) throw new AppError('forbidden', `This API key cannot post to ${outside.join(', ')}.`);
    return list.sort();
  }

  /** A feed in queue mode names a queue that can take its networks' posts. */
  async #checkMode(p: Principal, mode: string, queue: string | null, networks: string[]): Promise<void> {
    if (mode === 'queue') await checkQueueMode(this.#d.queues, p.workspaceId, queue ?? DEFAULT_QUEUE, networks);
  }

  async create(p: Principal, input: FeedInput): Promise<FeedRow> {
    const networks = this.#checkNetworks(input.networks, p.scope);
    await this.#checkMode(p, input.mode ?? 'draft', input.queue ?? null, networks);
    const url = await this.#checkUrl(input.url);
    return this.#d.store.insert({
      workspaceId: p.workspaceId,
      url,
      networks,
      mode: input.mode ?? 'draft',
      queue: input.queue ?? null,
      delayMinutes: input.schedule?.delay_minutes ?? 0,
      delayFrom: input.schedule?.from ?? 'found',
      template: input.template ?? DEFAULT_TEMPLATE,
      ai: input.ai ?? false,
      backfill: input.backfill ?? false,
      paused: input.paused ?? false,
      scope: scopeKey(p.scope),
      createdBy: p.user?.id ?? null,
    });
  }

  async list(p: Principal): Promise<FeedRow[]> {
    return (await this.#d.store.list(p.workspaceId)).filter((f) => visibleTo(p.scope, f));
  }

  async get(p: Principal, id: string): Promise<FeedRow> {
    const row = await this.#d.store.byId(p.workspaceId, id);
    if (!row || !visibleTo(p.scope, row)) throw new AppError('not_found', 'Feed not found');
    return row;
  }

  async update(p: Principal, id: string, patch: Partial<FeedInput>): Promise<FeedRow> {
    const before = await this.get(p, id);
    const url = patch.url === undefined ? undefined : await this.#checkUrl(patch.url);
    const networks = patch.networks === undefined ? undefined : this.#checkNetworks(patch.networks, p.scope);
    if (patch.mode !== undefined || patch.queue !== undefined || networks)
      await this.#checkMode(
        p,
        patch.mode ?? before.mode,
        patch.queue === undefined ? before.queue : patch.queue,
        networks ?? before.networks,
      );
    const urlChanged = url !== undefined && url !== before.url;
    const row = await this.#d.store.update(p.workspaceId, id, {
      ...(url !== undefined ? { url } : {}),
      // Another feed at a new URL: its validators mean nothing there, and its first poll is a first poll again.
      ...(urlChanged ? { etag: null, lastModified: null, primed: false } : {}),
      ...(networks ? { networks } : {}),
      ...(patch.mode !== undefined ? { mode: patch.mode } : {}),
      ...(patch.queue !== undefined ? { queue: patch.queue } : {}),
      ...(patch.schedule?.delay_minutes !== undefined ? { delayMinutes: patch.schedule.delay_minutes } : {}),
      ...(patch.schedule?.from !== undefined ? { delayFrom: patch.schedule.from } : {}),
      ...(patch.template !== undefined ? { template: patch.template } : {}),
      ...(patch.ai !== undefined ? { ai: patch.ai } : {}),
      ...(patch.backfill !== undefined ? { backfill: patch.backfill } : {}),
      ...(patch.paused !== undefined ? { paused: patch.paused } : {}),
    });
    if (!row) throw new AppError('not_found', 'Feed not found');
    return row;
  }

  async remove(p: Principal, id: string): Promise<void> {
    await this.get(p, id);
    await this.#d.store.remove(p.workspaceId, id);
  }

  /**
   * A poll asked for by a member, now. It may overlap a round's poll of the same feed: the items' unique index still
   * lets only one of them post each item.
   */
  async pollNow(p: Principal, id: string): Promise<PollResult> {
    await this.get(p, id);
    const claimed = await this.#d.store.claimOne(p.workspaceId, id);
    if (!claimed) throw new AppError('not_found', 'Feed not found');
    return this.poll(claimed);
  }

  /** One poll of a claimed feed. Never throws: a failure is recorded on the feed. */
  async poll(feed: FeedRow): Promise<PollResult> {
    let entries: FeedEntry[];
    let validators: { etag: string | null; lastModified: string | null };
    try {
      const got = await this.#d.fetcher.fetch(feed.url, { etag: feed.etag, lastModified: feed.lastModified });
      if (got.status === 'not_modified') {
        await this.#d.store.succeeded(feed.id, {});
        return { status: 'not_modified', seen: 0, posted: 0, failed: 0 };
      }
      entries = parseItems(got.body).items;
      validators = { etag: got.etag, lastModified: got.lastModified };
    } catch (err) {
      const message =
        err instanceof FeedFetchError || err instanceof FeedParseError ? err.message : 'the poll failed unexpectedly';
      if (!(err instanceof FeedFetchError || err instanceof FeedParseError))
        this.#d.logger.warn({ err, feed: feed.id }, 'feed poll failed');
      await this.#failed(feed, message);
      return { status: 'failed', seen: 0, posted: 0, failed: 0, error: message };
    }
    const result = await this.#take(feed, entries);
    await this.#d.store.succeeded(feed.id, validators);
    return result;
  }

  async #failed(feed: FeedRow, error: string): Promise<void> {
    await this.#d.db.transaction(async (tx) => {
      const row = await this.#d.store.failed(tx as unknown as Db, feed.id, error);
      // Once per failure streak: a feed down for a day is one event, not one per poll.
      if (row?.failures === 1)
        await recordEvent(
          tx as unknown as Db,
          feed.workspaceId,
          'feed.failed',
          {
            feed_id: feed.id,
            url: shownUrl(feed.url),
            error,
            last_success_at: row.lastSuccessAt?.toISOString() ?? null,
          },
          { at: this.#d.clock() },
        );
    });
  }

  /** The items not seen before: remembered only on a first poll without backfill, else posted (newest first, capped). */
  async #take(feed: FeedRow, entries: FeedEntry[]): Promise<PollResult> {
    const unique = [...new Map(entries.map((e) => [e.key, e])).values()];
    const known = await this.#d.store.known(
      feed.id,
      unique.map((e) => e.key),
    );
    const fresh = unique.filter((e) => !known.has(e.key));
    const seenAs = (e: FeedEntry, outcome: 'posted' | 'skipped') => ({ ...e, outcome });
    if (!feed.primed && !feed.backfill) {
      const seen = await this.#d.store.remember(
        feed,
        fresh.map((e) => seenAs(e, 'skipped')),
      );
      return { status: 'ok', seen: seen.size, posted: 0, failed: 0 };
    }
    // Newest first when dates say so; the rest wait for the next poll. Posted oldest first, so they queue in order.
    const byDate = fresh
      .map((e, i) => ({ e, i }))
      .sort((a, b) => (b.e.publishedAt?.getTime() ?? 0) - (a.e.publishedAt?.getTime() ?? 0) || a.i - b.i)
      .slice(0, this.#d.config.maxItems)
      .reverse()
      .map((x) => x.e);
    const mine = await this.#d.store.remember(
      feed,
      byDate.map((e) => seenAs(e, 'posted')),
    );
    const result: PollResult = { status: 'ok', seen: mine.size, posted: 0, failed: 0 };
    if (!mine.size) return result;
    const p = await this.#principal(feed);
    for (const item of byDate.filter((e) => mine.has(e.key))) {
      try {
        const refs = await this.#postItem(p, feed, item);
        await this.#d.store.settleItem(feed.id, item.key, 'posted', null, refs);
        result.posted++;
      } catch (err) {
        const detail = err instanceof AppError ? detailText(err) : 'the post could not be made';
        if (!(err instanceof AppError)) this.#d.logger.warn({ err, feed: feed.id }, 'feed item not posted');
        await this.#d.store.settleItem(feed.id, item.key, 'failed', detail, []);
        result.failed++;
      }
    }
    return result;
  }

  async #principal(feed: FeedRow): Promise<Principal> {
    const planId = await this.#d.planOf(feed.workspaceId);
    if (!planId) throw new AppError('not_found', 'Workspace not found');
    return {
      kind: 'api_key',
      user: null,
      workspaceId: feed.workspaceId,
      planId,
      role: null,
      scope: parseScope(feed.scope || 'full', this.#d.slugs()),
      keyId: null,
    };
  }

  #when(feed: FeedRow, item: FeedEntry): string | undefined {
    if (feed.mode !== 'schedule') return undefined;
    const now = this.#d.clock().getTime();
    const base = feed.delayFrom === 'published' && item.publishedAt ? item.publishedAt.getTime() : now;
    return new Date(Math.max(base + feed.delayMinutes * 60_000, now + MIN_LEAD_MS)).toISOString();
  }

  /** One item's post(s): one post to every network from the template, or one per network with AI copy. */
  async #postItem(p: Principal, feed: FeedRow, item: FeedEntry): Promise<Record<string, unknown>[]> {
    const fromTemplate = renderTemplate(feed.template, item);
    const texts = new Map<string, string>();
    if (feed.ai) {
      const copies = await this.#d.copy(p, ideaOf(item), feed.networks);
      for (const n of feed.networks) {
        const c = copies[n];
        texts.set(n, typeof c === 'string' && c.trim() ? c : fromTemplate);
      }
    }
    const groups = feed.ai
      ? feed.networks.map((n) => ({ platforms: [n], text: texts.get(n)! }))
      : [{ platforms: feed.networks, text: fromTemplate }];
    const when = this.#when(feed, item);
    const refs: Record<string, unknown>[] = [];
    for (const g of groups) {
      if (!g.text.trim()) throw new AppError('validation', 'The template made an empty post for this item.');
      const body: PostBody = {
        platforms: g.platforms,
        default_text: g.text,
        ...(feed.mode === 'draft' ? { draft: true } : {}),
        ...(when ? { scheduled_time: when } : {}),
      };
      const reply =
        feed.mode === 'queue'
          ? await postToQueue(this.#d.queues, p, feed.queue ?? DEFAULT_QUEUE, body, (b) => this.#d.post(p, b))
          : await this.#d.post(p, body);
      refs.push(...refsOf(reply.body));
    }
    return refs;
  }
}

function detailText(err: AppError): string {
  const d = err.detail as unknown;
  if (typeof d === 'string') return d;
  if (Array.isArray(d)) return d.map((x: { msg?: string }) => x.msg ?? '').join('; ');
  if (d && typeof d === 'object' && 'message' in d) return String((d as { message: unknown }).message);
  return err.message;
}

/** What publishing answered, kept with the item: drafts (held or not), scheduled posts, results. */
function refsOf(body: object): Record<string, unknown>[] {
  const b = body as { drafts?: unknown; scheduled?: unknown; results?: unknown };
  const out: Record<string, unknown>[] = [];
  for (const list of [b.drafts, b.scheduled]) if (Array.isArray(list)) out.push(...(list as Record<string, unknown>[]));
  return out;
}

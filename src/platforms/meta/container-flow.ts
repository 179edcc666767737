// The container → wait → publish flow that Instagram and Threads share (Threads reuses this module): create one
// container per item (carousel children first, then the parent), wait until Meta has fetched and processed the media,
// then publish the finished container. The flow is a function of the journal, so publish(), checkStatus() and a retry
// after a crash all run the same code: journaled containers are reused while Meta still knows them, a container that
// turns out PUBLISHED is looked up instead of published again, and nothing unfinished is ever sent to publish.
import { setTimeout as sleep } from 'node:timers/promises';
import type { HttpResponse } from '../http.ts';
import type { Journal, PublishMedia, PublishOutcome, PublishRequest, Publisher } from '../publishing.ts';
import type { AdapterDeps, Platform, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { isRecord, num, str, transientStatus } from './graph.ts';
import { safeText } from '../errors.ts';

export type ContainerState = 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';

export interface ContainerInfo {
  id: string;
  state: ContainerState;
  /** Meta's explanation of an ERROR state. */
  message: string | null;
}

export type Params = Record<string, string | undefined>;

/** What differs between the two networks: paths, parameter names and field names. */
export interface ContainerDialect {
  platform: Extract<Platform, 'instagram' | 'threads'>;
  /** Versioned API root, e.g. https://graph.instagram.com/v26.0. */
  api: string;
  ok(res: HttpResponse): Record<string, unknown>;
  /** Refuses, before any call, a request this network cannot publish. */
  check(req: PublishRequest): void;
  /** The `{user}` path segment that containers and publishing go to. */
  userId(tokens: TokenSet, req: PublishRequest, journal: Journal): Promise<string>;
  createEdge: string;
  publishEdge: string;
  /** Edge listing the user's own posts, newest first (reconciliation). */
  listEdge: string;
  statusFields: string;
  readStatus(body: Record<string, unknown>): { state: string | null; message: string | null };
  /** A single (non-carousel) container. */
  single(req: PublishRequest): Params;
  child(media: PublishMedia): Params;
  parent(req: PublishRequest, children: string[]): Params;
  listFields: string;
  /** Whether a listed post is the one this request produced (same caption and kind). */
  matches(item: Record<string, unknown>, req: PublishRequest): boolean;
  permalinkFields: string;
  permalinkOf(body: Record<string, unknown>): string | null;
  /** A publish refusal that only means "not processed yet" (a race with processing), not a failure. */
  notReady(err: PlatformError): boolean;
  /**
   * The publishing-quota edge (`{user}/{edge}?fields=quota_usage,config`) and the refusal that means the quota is
   * spent.
   */
  quota?: { edge: string; spent(err: PlatformError): boolean };
  /** A publish refusal whose cure is a new container (Meta's advice for an expired, lost or failed one). */
  renew?(err: PlatformError): boolean;
}

export interface FlowOptions {
  /**
   * Pauses between the status polls publish() makes itself for image and text containers, which Meta usually
   * finishes within seconds; videos return `processing` at once and are left to checkStatus.
   */
  waitMs?: readonly number[];
  /**
   * The least time between two status reads of one container in checkStatus, in seconds: Meta recommends once a
   * minute (for at most five minutes), whatever pace the caller polls at. Asked sooner, checkStatus answers
   * `processing` without a call.
   */
  pollSeconds?: number;
}

/** Meta's recommended pace for container status reads. */
export const DEFAULT_POLL_SECONDS = 60;

export const DEFAULT_WAIT_MS: readonly number[] = [500, 1000, 2000];
const STATES = new Set<string>(['IN_PROGRESS', 'FINISHED', 'ERROR', 'EXPIRED', 'PUBLISHED']);

/** Journal step names (see publishing.ts): every id is recorded before the next call. */
export const STEP = {
  child: (i: number) => `child.${i}`,
  /** The child ids the journaled parent was built from, so a rebuilt child invalidates the parent. */
  children: 'children',
  container: 'container',
  /** The container id, recorded just before the publish call: from here on a publish may have happened. */
  publish: 'publish',
  media: 'media',
} as const;

export function containerPublisher(d: ContainerDialect, deps: AdapterDeps, opts: FlowOptions = {}): Publisher {
  const waits = opts.waitMs ?? DEFAULT_WAIT_MS;
  const pollMs = (opts.pollSeconds ?? DEFAULT_POLL_SECONDS) * 1000;
  /** When each container was last read by checkStatus (per process; a restart may read once sooner). */
  const lastRead = new Map<string, number>();
  const auth = (tokens: TokenSet) => ({ authorization: `Bearer ${tokens.accessToken}` });

  const get = async (tokens: TokenSet, path: string, fields: string, extra: Params = {}) =>
    d.ok(
      await deps.http.request(d.platform, {
        url: `${d.api}/${path}`,
        query: { fields, ...extra },
        headers: auth(tokens),
      }),
    );

  const post = async (tokens: TokenSet, path: string, form: Params) =>
    d.ok(await deps.http.request(d.platform, { method: 'POST', url: `${d.api}/${path}`, form, headers: auth(tokens) }));

  const idOf = (body: Record<string, unknown>, what: string): string => {
    const id = str(body.id);
    if (!id) throw new PlatformError(d.platform, 'transient', `${d.platform} answered without ${what}`);
    return id;
  };

  /** The container's state now; null when Meta no longer knows it or it expired (it must be created again). */
  async function probe(tokens: TokenSet, id: string): Promise<ContainerInfo | null> {
    let body: Record<string, unknown>;
    try {
      body = await get(tokens, encodeURIComponent(id), d.statusFields);
    } catch (err) {
      if (err instanceof PlatformError && err.kind === 'not_found') return null;
      throw err;
    }
    const { state, message } = d.readStatus(body);
    // An unknown or missing status is treated as still processing: publishing it would be a guess.
    const known = state && STATES.has(state) ? (state as ContainerState) : 'IN_PROGRESS';
    return known === 'EXPIRED' ? null : { id, state: known, message };
  }

  async function create(
    tokens: TokenSet,
    user: string,
    journal: Journal,
    step: string,
    params: Params,
  ): Promise<ContainerInfo> {
    const id = idOf(await post(tokens, `${encodeURIComponent(user)}/${d.createEdge}`, params), 'a container id');
    await journal.record(step, id);
    return (await probe(tokens, id)) ?? { id, state: 'IN_PROGRESS', message: null };
  }

  /** Polls containers still IN_PROGRESS with the configured pauses; returns their latest states. */
  async function settle(tokens: TokenSet, items: ContainerInfo[], wait: boolean): Promise<ContainerInfo[]> {
    let current = items;
    for (const ms of wait ? waits : []) {
      if (!current.some((c) => c.state === 'IN_PROGRESS')) break;
      await sleep(ms);
      current = await Promise.all(
        current.map(async (c) => (c.state === 'IN_PROGRESS' ? ((await probe(tokens, c.id)) ?? c) : c)),
      );
    }
    return current;
  }

  function failed(c: ContainerInfo): PlatformError {
    // A passing failure (server error, download timeout) is retryable; the retry makes a new container.
    const kind = transientStatus(c.message) ? 'transient' : 'invalid_content';
    return new PlatformError(
      d.platform,
      kind,
      `${d.platform} could not process the media (${safeText(c.message) || 'ERROR'})`,
      { code: 'ERROR' },
    );
  }

  async function permalink(tokens: TokenSet, mediaId: string): Promise<string | null> {
    try {
      return d.permalinkOf(await get(tokens, encodeURIComponent(mediaId), d.permalinkFields));
    } catch (err) {
      // The post exists and its id is journaled; a missing link is not worth failing (or repeating) the publish.
      deps.logger.warn(
        { platform: d.platform, err: err instanceof Error ? err.message : String(err) },
        'permalink lookup failed',
      );
      return null;
    }
  }

  /** The post a PUBLISHED container became: Meta does not link the two, so the newest matching own post. */
  async function findPublished(
    tokens: TokenSet,
    user: string,
    req: PublishRequest,
  ): Promise<{ postId: string; permalink: string | null } | null> {
    const body = await get(tokens, `${encodeURIComponent(user)}/${d.listEdge}`, d.listFields, { limit: '25' });
    const items = Array.isArray(body.data) ? body.data.filter(isRecord) : [];
    const hit = items.find((item) => d.matches(item, req));
    const postId = hit ? str(hit.id) : null;
    return hit && postId ? { postId, permalink: d.permalinkOf(hit) } : null;
  }

  async function recordPublished(
    tokens: TokenSet,
    journal: Journal,
    postId: string,
    link?: string | null,
  ): Promise<PublishOutcome> {
    if (journal.steps[STEP.media] !== postId) await journal.record(STEP.media, postId);
    return { state: 'published', postId, permalink: link ?? (await permalink(tokens, postId)) };
  }

  /**
   * A spent publishing quota, its wait read from the quota edge: `config.quota_duration` (the rolling window) while the
   * usage is at the total, a minute when a slot has freed since the refusal. The refusal as mapped if the read fails.
   */
  async function quotaRefusal(tokens: TokenSet, user: string, err: PlatformError): Promise<PlatformError> {
    if (!d.quota) return err;
    try {
      const body = await get(tokens, `${encodeURIComponent(user)}/${d.quota.edge}`, 'quota_usage,config');
      const row = Array.isArray(body.data) && isRecord(body.data[0]) ? body.data[0] : {};
      const config = isRecord(row.config) ? row.config : {};
      const [usage, total, duration] = [num(row.quota_usage), num(config.quota_total), num(config.quota_duration)];
      const wait = usage !== null && total !== null && usage < total ? 60 : duration;
      if (wait === null || wait <= 0) return err;
      return new PlatformError(d.platform, err.kind, err.message, {
        retryAfterSeconds: wait,
        ...(err.status !== undefined ? { status: err.status } : {}),
        ...(err.code !== undefined ? { code: err.code } : {}),
        accountCondition: err.accountCondition,
      });
    } catch {
      return err;
    }
  }

  /**
   * Carousel children, reused while valid and created otherwise: their ids once all are FINISHED, else the outcome to
   * return.
   */
  async function children(
    tokens: TokenSet,
    user: string,
    req: PublishRequest,
    journal: Journal,
    wait: boolean,
  ): Promise<string[] | PublishOutcome> {
    let kids: ContainerInfo[] = [];
    for (const [i, media] of req.media.entries()) {
      const known = journal.steps[STEP.child(i)];
      const probed = known ? await probe(tokens, known) : null;
      // A child that failed is made again rather than reused forever.
      const reused = probed?.state === 'ERROR' ? null : probed;
      kids.push(reused ?? (await create(tokens, user, journal, STEP.child(i), d.child(media))));
    }
    kids = await settle(tokens, kids, wait);
    const bad = kids.find((k) => k.state === 'ERROR');
    if (bad) throw failed(bad);
    const pending = kids.find((k) => k.state === 'IN_PROGRESS');
    if (pending) return { state: 'processing', handle: pending.id };
    return kids.map((k) => k.id);
  }

  async function advance(
    tokens: TokenSet,
    req: PublishRequest,
    journal: Journal,
    wait: boolean,
  ): Promise<PublishOutcome> {
    const done = journal.steps[STEP.media];
    if (done) return recordPublished(tokens, journal, done);
    d.check(req);
    const user = await d.userId(tokens, req, journal);
    const carousel = req.postType === 'carousel';
    const journaledKids = req.media.map((_, i) => journal.steps[STEP.child(i)] ?? '').join(',');
    const reusable = !carousel || journal.steps[STEP.children] === journaledKids;
    const known = journal.steps[STEP.container];
    let main = known && reusable ? await probe(tokens, known) : null;
    // A container in ERROR is never published: a retry makes a new one (Meta's advice for its failed containers).
    if (main?.state === 'ERROR') main = null;
    if (!main) {
      let params: Params;
      if (carousel) {
        const kids = await children(tokens, user, req, journal, wait);
        if (!Array.isArray(kids)) return kids;
        if (journal.steps[STEP.children] !== kids.join(',')) await journal.record(STEP.children, kids.join(','));
        params = d.parent(req, kids);
      } else {
        params = d.single(req);
      }
      main = await create(tokens, user, journal, STEP.container, params);
    }
    main = (await settle(tokens, [main], wait))[0] ?? main;
    switch (main.state) {
      case 'ERROR':
        throw failed(main);
      case 'IN_PROGRESS':
        return { state: 'processing', handle: main.id };
      case 'PUBLISHED': {
        // Published by an attempt whose answer was lost: find the post rather than publish again.
        const found = await findPublished(tokens, user, req);
        if (!found)
          throw new PlatformError(
            d.platform,
            'transient',
            `${d.platform} reports the container published but the post is not listed yet`,
          );
        return recordPublished(tokens, journal, found.postId, found.permalink);
      }
      default:
    }
    await journal.record(STEP.publish, main.id);
    let body: Record<string, unknown>;
    try {
      body = await post(tokens, `${encodeURIComponent(user)}/${d.publishEdge}`, { creation_id: main.id });
    } catch (err) {
      if (err instanceof PlatformError && d.notReady(err)) return { state: 'processing', handle: main.id };
      if (err instanceof PlatformError && d.quota?.spent(err)) throw await quotaRefusal(tokens, user, err);
      // Forget the container so the retry makes a new one (an empty step reads as none).
      if (err instanceof PlatformError && d.renew?.(err)) await journal.record(STEP.container, '');
      throw err;
    }
    return recordPublished(tokens, journal, idOf(body, 'the published post id'));
  }

  return {
    publish: (tokens, req, journal) =>
      advance(
        tokens,
        req,
        journal,
        req.media.every((m) => m.kind === 'image'),
      ),
    // The journal, not the handle, says where the flow stands; the handle only names what was being waited on.
    checkStatus: (tokens, handle, req, journal) => {
      const now = deps.clock().getTime();
      const last = lastRead.get(handle);
      if (last !== undefined && now - last < pollMs) return Promise.resolve({ state: 'processing', handle });
      lastRead.set(handle, now);
      if (lastRead.size > 10_000) lastRead.delete(lastRead.keys().next().value!);
      // A read that failed leaves the pace to the caller's retry (its backoff), not to this clock.
      return advance(tokens, req, journal, false).catch((err: unknown) => {
        lastRead.delete(handle);
        throw err;
      });
    },

    async reconcile(tokens, req, journal) {
      const mediaId = journal.steps[STEP.media];
      if (mediaId) {
        try {
          const body = await get(tokens, encodeURIComponent(mediaId), d.permalinkFields);
          return { postId: mediaId, permalink: d.permalinkOf(body) };
        } catch (err) {
          if (err instanceof PlatformError && err.kind === 'not_found') return null;
          throw err;
        }
      }
      const containerId = journal.steps[STEP.publish] ?? journal.steps[STEP.container];
      if (!containerId) return null;
      const container = await probe(tokens, containerId);
      if (container?.state !== 'PUBLISHED') return null;
      return findPublished(tokens, await d.userId(tokens, req, journal), req);
    },
  };
}

/** Caption comparison tolerant of the whitespace Meta trims. */
export function sameText(a: unknown, b: string): boolean {
  return typeof a === 'string' ? a.trim() === b.trim() : b.trim() === '';
}

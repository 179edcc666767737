// Publishing: validate everything, spend credits, record the ledger, then fan out to the networks in
// parallel. Routes and tools call publish(); the scheduling worker reuses runTarget().
import type { Logger } from 'pino';
import type { Principal } from '../auth/authenticate.ts';
import type { CreditService } from '../auth/credits.ts';
import type { PlanCatalog } from '../auth/plans.ts';
import type { Platform } from '../auth/scopes.ts';
import type { ConnectionStore } from '../connections/store.ts';
import type { TokenKeeper } from '../connections/tokens.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import type { MediaRow } from '../media/records.ts';
import type { MediaService } from '../media/service.ts';
import type { PlatformRegistry } from '../platforms/registry.ts';
import type { PostType } from '../platforms/publishing.ts';
import type { DraftService } from './drafts.ts';
import { isUniqueViolation, replay, requestHash, type IdempotencyClaim } from './idempotency.ts';
import { Ledger, type TargetRow } from './ledger.ts';
import { checkMedia } from './media-check.ts';
import { withImportedMedia } from './media-refs.ts';
import { planTargets, type FieldPath, type MediaRef, type PlannedTarget } from './plan.ts';
import { TargetRunner, type TargetResult } from './runner.ts';
import { connectionFor, idOf, specOf } from './targets.ts';
import type { PostBody } from './schemas.ts';

export interface PublishingDeps {
  db: Db;
  registry: PlatformRegistry;
  connections: ConnectionStore;
  tokens: TokenKeeper;
  credits: CreditService;
  plans: PlanCatalog;
  media: MediaService;
  drafts: DraftService;
  clock: () => Date;
  logger: Logger;
  /** Longest a request waits for one network, processing included, before answering "still processing". */
  targetTimeoutMs: number;
  /** Pause between status checks of a post the network is still processing (HERALD_PUBLISH_POLL_MS). */
  pollIntervalMs?: number;
}

export interface PublishReply {
  status: number;
  body: Record<string, unknown>;
}

/** A request checked by prepare(). */
export interface Prepared {
  targets: PlannedTarget[];
  media: Map<string, MediaRow>;
  /** URL → id of the library media each media URL of the body was imported as. */
  imported: Map<string, string>;
}

export interface PrepareOptions {
  /** Where the body sits in the request, for the `loc` of errors (default ['body']; a PATCH's ['body', 'post_data']). */
  at?: FieldPath;
}

/** What publish() hands the scheduler: the checked request and the claim of its Idempotency-Key. */
export interface ScheduleRequest {
  targets: PlannedTarget[];
  imported: Map<string, string>;
  idempotency?: IdempotencyClaim | undefined;
}

export class PublishingService {
  readonly #d: PublishingDeps;
  readonly ledger: Ledger;
  readonly runner: TargetRunner;
  /** Set by the composition root: schedules the networks that carry a scheduled_time. */
  scheduler: ((p: Principal, postType: PostType, body: PostBody, request: ScheduleRequest) => Promise<PublishReply>) | undefined;

  constructor(deps: PublishingDeps) {
    this.#d = deps;
    this.ledger = new Ledger(deps.db, deps.clock);
    this.runner = new TargetRunner({ ...deps, ledger: this.ledger });
  }

  /** Everything the request asks for, checked before a single network call; returns targets with media rows. */
  async prepare(p: Principal, postType: PostType, body: PostBody, o: PrepareOptions = {}): Promise<Prepared> {
    this.#d.plans.assertFeature(p.planId, 'publish_enabled');
    return this.#check(p, postType, body, o);
  }

  /**
   * A body saved as drafts, checked as the post routes check `draft: true`: text limits, media ids of
   * this workspace, URLs imported through the fetcher (store the body withImportedMedia).
   */
  async prepareDrafts(p: Principal, postType: PostType, body: PostBody, o: PrepareOptions = {}): Promise<Prepared> {
    return this.#check(p, postType, { ...body, draft: true, draft_platforms: [] }, o);
  }

  async #check(p: Principal, postType: PostType, body: PostBody, o: PrepareOptions): Promise<Prepared> {
    const targets = planTargets({ networks: this.#d.registry, postType, body });
    if (targets.some((t) => t.draft)) this.#d.plans.assertFeature(p.planId, 'drafts_enabled');
    if (targets.some((t) => t.scheduledTime && !t.draft)) {
      this.#d.plans.assertFeature(p.planId, 'scheduling_enabled');
      if (!this.scheduler) throw new AppError('validation', 'scheduled_time is not supported by this server: publish now or save a draft.');
    }
    const at = o.at ?? ['body'];
    const { media, imported } = await this.#resolveMedia(p, postType, targets, at);
    const checked = (m: MediaRef) => ({ row: media.get(idOf(m))!, field: m.field });
    for (const t of targets) {
      if (!t.draft) checkMedia(this.#d.registry.network(t.platform), postType, t.media.map(checked), t.thumbnail && checked(t.thumbnail), at);
    }
    return { targets, media, imported };
  }

  /**
   * URL media is imported into the library first (SSRF-safe, all within one deadline), then every id
   * must belong to this workspace. A refused URL is reported at the field that named it.
   */
  async #resolveMedia(p: Principal, postType: PostType, targets: PlannedTarget[], at: FieldPath): Promise<{ media: Map<string, MediaRow>; imported: Map<string, string> }> {
    // Media URLs of the video route are videos; every other URL (images, thumbnails) is an image.
    const urls = new Map<string, { id: string; kind: 'image' | 'video'; field: FieldPath }>();
    const note = (m: MediaRef, kind: 'image' | 'video') => {
      if ('url' in m && !urls.has(m.url)) urls.set(m.url, { id: '', kind, field: m.field ?? [kind === 'video' ? 'video_url' : 'default_image_url'] });
    };
    for (const t of targets) {
      for (const m of t.media) note(m, postType === 'video' ? 'video' : 'image');
      if (t.thumbnail) note(t.thumbnail, 'image');
    }
    const library = { workspaceId: p.workspaceId, platform: null, platformUserId: null };
    const deadline = urls.size ? this.#d.media.importDeadline() : undefined;
    try {
      for (const [url, entry] of urls) entry.id = (await this.#d.media.add(library, { url }, entry.kind, [...at, ...entry.field], deadline)).id;
    } finally {
      deadline?.done();
    }
    for (const t of targets) {
      const asId = (m: MediaRef): MediaRef => ('url' in m ? { id: urls.get(m.url)!.id, ...(m.field ? { field: m.field } : {}) } : m);
      t.media = t.media.map(asId);
      if (t.thumbnail) t.thumbnail = asId(t.thumbnail);
    }
    const ids = [...new Set(targets.flatMap((t) => [...t.media, ...(t.thumbnail ? [t.thumbnail] : [])].map(idOf)))];
    const rows = ids.length ? await this.#d.media.resolveMediaForWorkspace(p.workspaceId, ids, p.scope) : [];
    return { media: new Map(rows.map((r) => [r.id, r])), imported: new Map([...urls].map(([url, e]) => [url, e.id])) };
  }

  async publish(p: Principal, postType: PostType, body: PostBody, idempotencyKey?: string): Promise<PublishReply> {
    const hash = requestHash({ postType, body });
    if (idempotencyKey) {
      const prior = await this.ledger.findByKey(p.workspaceId, idempotencyKey);
      if (prior) return replay(prior, hash);
    }
    const { targets, imported } = await this.prepare(p, postType, body);
    // Networks with a scheduled_time become queue entries (src/scheduling); the rest come back here.
    // The scheduler claims the key in the transaction that creates the entries.
    if (this.scheduler && targets.some((t) => t.scheduledTime && !t.draft)) {
      return this.scheduler(p, postType, body, { targets, imported, idempotency: idempotencyKey ? { key: idempotencyKey, requestHash: hash, request: body } : undefined });
    }
    const connections = await this.#d.connections.list(p.workspaceId);
    const live = targets.filter((t) => !t.draft);
    const chosen = new Map(live.map((t) => [t, connectionFor(connections, t)]));
    const billable = live.filter((t) => chosen.get(t));

    let postId: string;
    let rows: { planned: PlannedTarget; row: TargetRow }[];
    try {
      ({ postId, rows } = await this.#d.db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        // Credits first, in the same transaction as the ledger: a 402 leaves nothing behind.
        if (billable.length) {
          await this.#d.credits.spend({ workspaceId: p.workspaceId, planId: p.planId, type: 'posts', amount: billable.length, reason: 'publish' }, tx);
        }
        const post = await this.ledger.createPost(tx, { workspaceId: p.workspaceId, postType, request: body, idempotencyKey: idempotencyKey ?? null, requestHash: hash, actor: p.keyId ? `key:${p.keyId}` : `user:${p.user?.id}` });
        const out: { planned: PlannedTarget; row: TargetRow }[] = [];
        for (const t of targets) {
          const conn = t.draft ? undefined : chosen.get(t);
          const row = await this.ledger.addTarget(tx, {
            postId: post.id,
            workspaceId: p.workspaceId,
            platform: t.platform,
            connectionId: conn?.id ?? null,
            platformUserId: conn?.accountId ?? null,
            destinationKind: t.destination?.kind ?? null,
            destinationId: t.destination?.id ?? null,
            // Targets that run right away start as processing (attempt 1), saving a commit per target.
            state: t.draft ? 'draft' : conn ? 'processing' : 'failed',
            attempts: t.draft || !conn ? 0 : 1,
            spec: specOf(t),
            creditSpent: Boolean(conn),
            ...(!t.draft && !conn ? { errorCode: 'NOT_CONNECTED', errorMessage: `${this.#d.registry.get(t.platform).displayName} not connected for this workspace.` } : {}),
          });
          out.push({ planned: t, row });
        }
        return { postId: post.id, rows: out };
      }));
    } catch (err) {
      if (idempotencyKey && isUniqueViolation(err)) {
        const prior = await this.ledger.findByKey(p.workspaceId, idempotencyKey);
        if (prior) return replay(prior, hash);
      }
      throw err;
    }

    // Drafts keep the library ids of the URLs imported above, so publishing them later downloads nothing.
    const drafts = await this.#d.drafts.saveFromPost(p.workspaceId, postType, withImportedMedia(this.#d.registry.networks, body, imported), rows.filter((r) => r.planned.draft).map((r) => r.planned.platform), postId);
    const results = await Promise.all(
      rows.filter((r) => !r.planned.draft).map(async ({ row }) => (row.state === 'failed' ? TargetRunner.resultOf(row, this.#d.registry) : this.runner.run(row.id, { attemptRecorded: true }))),
    );
    const reply = shape(body.platforms.length, results, drafts);
    await this.ledger.finishPost(postId, reply.body, reply.status);
    return reply;
  }

}

function shape(requested: number, results: TargetResult[], drafts: { platform: string; draft_id: string; status: 'draft' }[]): PublishReply {
  if (drafts.length && !results.length) return { status: 200, body: { success: true, message: 'Saved as drafts', drafts } };
  if (drafts.length) return { status: 200, body: { success: results.every((r) => r.success), message: 'Drafts and posts completed', drafts, results } };
  if (requested === 1 && results.length === 1) {
    const r = results[0]!;
    return { status: 200, body: { success: r.success, message: r.message, ...(r.post ? { post: r.post } : {}), ...(r.error ? { error: r.error } : {}) } };
  }
  return { status: 200, body: { results } };
}

export type { Platform };

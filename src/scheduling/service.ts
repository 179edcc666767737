// Scheduled posts: creation (from the post routes or POST /unified/scheduled-posts), the user actions
// on queue entries, and their status rules. Publishing itself is the worker's (worker.ts).
import type { Principal } from '../auth/authenticate.ts';
import type { CreditService } from '../auth/credits.ts';
import { assertPlatformsAllowed, type Platform } from '../auth/scopes.ts';
import type { ConnectionStore } from '../connections/store.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import type { WorkspaceService } from '../auth/workspaces.ts';
import type { PostType } from '../platforms/publishing.ts';
import type { DraftService } from '../publishing/drafts.ts';
import { narrowBody } from '../publishing/drafts.ts';
import { isUniqueViolation, replay, requestHash, type IdempotencyClaim } from '../publishing/idempotency.ts';
import { nothingToUpdate, overrideKeys, parseEdit } from '../publishing/edits.ts';
import type { PlatformRegistry } from '../platforms/registry.ts';
import { mergeEdit, withImportedMedia } from '../publishing/media-refs.ts';
import type { PublishingService, PublishReply, ScheduleRequest } from '../publishing/service.ts';
import type { PostBody } from '../publishing/schemas.ts';
import { ALLOWED_FROM, conflict, ScheduledStore, toWire, type ScheduledRow } from './store.ts';
import type { ScheduleQueue } from './queue.ts';
import { parseScheduledTime, validTimeZone } from './time.ts';

export interface SchedulingDeps {
  db: Db;
  publishing: PublishingService;
  drafts: DraftService;
  credits: CreditService;
  connections: ConnectionStore;
  workspaces: WorkspaceService;
  clock: () => Date;
  /** The networks: override keys of stored bodies, body schemas of edits. */
  registry: Pick<PlatformRegistry, 'networks'>;
  /** Publishes one claimed row now (the worker's execute), for publish-now. */
  publishNow?: (row: ScheduledRow) => Promise<void>;
  /** Wake-ups at each entry's time (pg-boss), sent after the rows are committed. */
  queue?: ScheduleQueue | undefined;
}

export interface PatchInput {
  scheduled_time?: string | undefined;
  post_data?: Record<string, unknown> | undefined;
  post_type?: PostType | undefined;
  status?: string | undefined;
}

/** post_data fields that cannot apply to one queue entry, and what to do instead. */
const REFUSED_IN_POST_DATA = {
  platforms: 'A scheduled post is for one network; schedule a new post for other networks.',
  draft: 'Use POST /unified/scheduled-posts/{id}/move-to-draft to turn a scheduled post into a draft.',
  draft_platforms: 'Use POST /unified/scheduled-posts/{id}/move-to-draft to turn a scheduled post into a draft.',
  scheduled_time: 'Send scheduled_time at the top level of the PATCH body, not in post_data.',
};

interface CreateOptions {
  /** The request's Idempotency-Key, claimed in the transaction that creates the entries. */
  idempotency?: IdempotencyClaim | undefined;
  /** More writes in that transaction (scheduling a draft removes it there). */
  inTx?: (tx: Db) => Promise<void>;
  /** The answer, when the entries alone make it: it is then stored with the key in the same transaction. */
  respond?: (rows: ScheduledRow[]) => PublishReply;
}

type Created = { replayed: PublishReply } /* an earlier request with the key answered */ | { rows: ScheduledRow[]; claimId: string | undefined; reply: PublishReply | undefined };

const scheduledList = (rows: ScheduledRow[]) => rows.map((r) => ({ platform: r.platform, scheduled_post_id: r.id, scheduled_time: r.scheduledTime.toISOString() }));

/** The body stored for one network: its override only, no draft flags, no scheduled_time anywhere. */
export function storedBody(body: PostBody, platform: string, keys: readonly string[]): PostBody {
  const { scheduled_time: _s, ...narrow } = narrowBody(body, platform, keys) as PostBody & { scheduled_time?: string };
  const out = narrow as PostBody & Record<string, unknown>;
  // narrowBody kept only this network's override.
  const o = out[platform] as Record<string, unknown> | undefined;
  if (o && typeof o === 'object' && 'scheduled_time' in o) {
    const { scheduled_time: _x, ...rest } = o;
    out[platform] = rest;
  }
  return out;
}

export class SchedulingService {
  readonly store: ScheduledStore;
  readonly #d: SchedulingDeps;

  constructor(deps: SchedulingDeps) {
    this.#d = deps;
    this.store = new ScheduledStore(deps.db, deps.clock);
  }

  get #keys(): string[] {
    return overrideKeys(this.#d.registry.networks);
  }

  set publishNowHook(fn: (row: ScheduledRow) => Promise<void>) {
    this.#d.publishNow = fn;
  }

  async timeZoneOf(workspaceId: string): Promise<string> {
    return validTimeZone((await this.#d.workspaces.byId(workspaceId))?.timeZone);
  }

  async wire(rows: ScheduledRow[], workspaceId: string) {
    const tz = await this.timeZoneOf(workspaceId);
    const now = this.#d.clock();
    return rows.map((r) => toWire(r, tz, now));
  }

  /**
   * Called by PublishingService.publish once the request validated: the networks with a scheduled_time
   * become queue entries; the rest (drafts, publish-now) go through publish() as usual.
   */
  async fromPublish(p: Principal, postType: PostType, body: PostBody, { targets, imported, idempotency }: ScheduleRequest): Promise<PublishReply> {
    const now = this.#d.clock();
    const when = new Map<Platform, Date>();
    for (const t of targets) {
      if (!t.scheduledTime || t.draft || when.has(t.platform)) continue;
      const field = (body[t.platform as keyof PostBody] as { scheduled_time?: string } | undefined)?.scheduled_time ? `${t.platform}.scheduled_time` : 'scheduled_time';
      when.set(t.platform, parseScheduledTime(t.scheduledTime, now, field));
    }
    // URL media was imported by the validation: entries, drafts and posts of this request use the library ids.
    const stored = withImportedMedia(this.#d.registry.networks, body, imported);
    const rest = [...new Set(targets.map((t) => t.platform))].filter((pl) => !when.has(pl));
    const onlyScheduled = (rows: ScheduledRow[]): PublishReply => ({ status: 200, body: { success: true, message: 'Scheduled', scheduled: scheduledList(rows) } });
    const created = await this.#create(p, postType, stored, when, { idempotency, ...(rest.length ? {} : { respond: onlyScheduled }) });
    if ('replayed' in created) return created.replayed;
    if (created.reply) return created.reply;
    const scheduled = scheduledList(created.rows);
    const restBody: PostBody = { ...stored, platforms: rest, ...(stored.draft_platforms ? { draft_platforms: stored.draft_platforms.filter((d) => rest.includes(d.trim().toLowerCase() as Platform)) } : {}) };
    let reply: PublishReply;
    try {
      reply = await this.#d.publishing.publish(p, postType, restBody);
    } catch (err) {
      // The entries are committed: a retry with the key must not schedule again, so it gets this answer too.
      if (created.claimId && err instanceof AppError) await this.#d.publishing.ledger.finishPost(created.claimId, err.body(), err.status);
      throw err;
    }
    const b = reply.body;
    const results = b.results ?? (b.drafts ? undefined : [{ platform: rest[0], success: b.success, message: b.message, ...(b.post ? { post: b.post } : {}), ...(b.error ? { error: b.error } : {}) }]);
    const ok = (results as { success: boolean }[] | undefined)?.every((r) => r.success) ?? true;
    const out: PublishReply = { status: reply.status, body: { success: ok, message: results ? 'Scheduled; other posts completed' : 'Scheduled; drafts saved', scheduled, ...(b.drafts ? { drafts: b.drafts } : {}), ...(results ? { results } : {}) } };
    if (created.claimId) await this.#d.publishing.ledger.finishPost(created.claimId, out.body, out.status);
    return out;
  }

  /** POST /unified/scheduled-posts: every network is scheduled at the body's scheduled_time. */
  async create(p: Principal, postType: PostType, body: PostBody, idempotencyKey?: string): Promise<PublishReply> {
    if (body.draft || body.draft_platforms?.length) throw new AppError('validation', 'draft and draft_platforms are not accepted here: use POST /unified/drafts to save drafts.');
    if (!body.scheduled_time) throw new AppError('validation', 'scheduled_time is required.');
    const hash = requestHash({ route: 'scheduled-posts', postType, body });
    const prior = idempotencyKey ? await this.#d.publishing.ledger.findByKey(p.workspaceId, idempotencyKey) : undefined;
    if (prior) return replay(prior, hash);
    const tz = await this.timeZoneOf(p.workspaceId);
    return this.#scheduleAll(p, postType, { ...body, scheduled_time: body.scheduled_time }, {
      idempotency: idempotencyKey ? { key: idempotencyKey, requestHash: hash, request: body } : undefined,
      respond: (rows) => {
        const now = this.#d.clock();
        const items = rows.map((r) => toWire(r, tz, now));
        return { status: 200, body: { success: true, message: 'Scheduled', scheduled: scheduledList(rows), data: { scheduled_posts: items, total: items.length }, error: null } };
      },
    });
  }

  /** POST /unified/drafts/{id}/schedule: the draft becomes a queue entry and leaves the drafts, in one transaction. */
  async scheduleDraft(p: Principal, draftId: string, scheduledTime: string, idempotencyKey?: string): Promise<PublishReply> {
    const hash = requestHash({ route: 'drafts/schedule', draftId, scheduledTime });
    const prior = idempotencyKey ? await this.#d.publishing.ledger.findByKey(p.workspaceId, idempotencyKey) : undefined;
    if (prior) {
      // The draft is gone by now: the key's scope is checked against the network it was scheduled for.
      if (prior.requestHash === hash) assertPlatformsAllowed(p.scope, [(prior.request as { platform: string }).platform]);
      return replay(prior, hash);
    }
    const draft = await this.#d.drafts.get(p.workspaceId, draftId);
    assertPlatformsAllowed(p.scope, [draft.platform]);
    const body = { ...storedBody(draft.body as PostBody, draft.platform, this.#keys), draft: false, scheduled_time: scheduledTime };
    return this.#scheduleAll(p, draft.postType as PostType, body, {
      idempotency: idempotencyKey ? { key: idempotencyKey, requestHash: hash, request: { draft_id: draftId, platform: draft.platform, scheduled_time: scheduledTime } } : undefined,
      inTx: (tx) => this.#d.drafts.remove(p.workspaceId, draftId, tx),
      respond: (rows) => ({ status: 200, body: { success: true, message: 'Scheduled', draft_id: draftId, scheduled: scheduledList(rows) } }),
    });
  }

  /** Validates the body (importing URL media) and schedules every network it names. */
  async #scheduleAll(p: Principal, postType: PostType, body: PostBody & { scheduled_time: string }, o: CreateOptions & { respond: (rows: ScheduledRow[]) => PublishReply }): Promise<PublishReply> {
    const { targets, imported } = await this.#d.publishing.prepare(p, postType, body);
    const now = this.#d.clock();
    const when = new Map<Platform, Date>();
    for (const t of targets) if (!when.has(t.platform)) when.set(t.platform, parseScheduledTime(t.scheduledTime ?? body.scheduled_time, now));
    const created = await this.#create(p, postType, withImportedMedia(this.#d.registry.networks, body, imported), when, o);
    return 'replayed' in created ? created.replayed : created.reply!;
  }

  async #create(p: Principal, postType: PostType, body: PostBody, when: Map<Platform, Date>, o: CreateOptions = {}): Promise<Created> {
    const conns = await this.#d.connections.list(p.workspaceId);
    const actor = p.keyId ? `key:${p.keyId}` : `user:${p.user?.id}`;
    const ledger = this.#d.publishing.ledger;
    let created: Exclude<Created, { replayed: PublishReply }>;
    try {
      created = await this.#d.db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        // The key first: a concurrent duplicate waits here until this transaction ends, then finds the key
        // taken (and replays this answer) before it touches the credits.
        const claim = o.idempotency
          ? await ledger.createPost(tx, { workspaceId: p.workspaceId, postType, request: o.idempotency.request, idempotencyKey: o.idempotency.key, requestHash: o.idempotency.requestHash, actor })
          : undefined;
        // One scheduled-post credit per queue entry, in the same transaction: a 402 leaves nothing behind.
        await this.#d.credits.spend({ workspaceId: p.workspaceId, planId: p.planId, type: 'scheduled_posts', amount: when.size, reason: 'schedule' }, tx);
        const out: ScheduledRow[] = [];
        for (const [platform, at] of when) {
          const conn = conns.find((c) => c.platform === platform && c.status === 'connected');
          out.push(
            await this.store.insert(
              tx,
              { workspaceId: p.workspaceId, platform, platformUserId: conn?.accountId ?? null, postType, postData: storedBody(body, platform, this.#keys), scheduledTime: at, actor },
              `scheduled for ${at.toISOString()}`,
            ),
          );
        }
        await o.inTx?.(tx);
        const reply = o.respond?.(out);
        if (claim && reply) await ledger.finishPost(claim.id, reply.body, reply.status, tx);
        return { rows: out, claimId: claim?.id, reply };
      });
    } catch (err) {
      if (o.idempotency && isUniqueViolation(err)) {
        const prior = await ledger.findByKey(p.workspaceId, o.idempotency.key);
        if (prior) return { replayed: replay(prior, o.idempotency.requestHash) };
      }
      throw err;
    }
    for (const r of created.rows) await this.#d.queue?.send(r.id, r.scheduledTime);
    return created;
  }

  async list(p: Principal, f: { platform?: string | undefined; platformUserId?: string | undefined; status?: string | undefined; limit: number; offset: number }) {
    return this.store.list(p.workspaceId, { ...f, platforms: [...p.scope.platforms] });
  }

  async cancel(workspaceId: string, id: string, reason = 'cancelled by the user'): Promise<ScheduledRow> {
    const row = await this.store.owned(workspaceId, id);
    if (!(ALLOWED_FROM.cancel as readonly string[]).includes(row.status)) throw conflict('cancel', row.status);
    const moved = await this.store.transition(id, ALLOWED_FROM.cancel, 'cancelled', row.status === 'publishing' ? `${reason} while publishing: the worker stops before its next network call` : reason);
    if (!moved) throw conflict('cancel', (await this.store.owned(workspaceId, id)).status);
    await this.#refundIfUnused(moved, row.status);
    return moved;
  }

  /** A queue entry that never reached a network gets its scheduled-post credit back. */
  async #refundIfUnused(row: ScheduledRow, from: string): Promise<void> {
    if (from !== 'scheduled' || row.postId) return;
    await this.#d.credits.refund({ workspaceId: row.workspaceId, type: 'scheduled_posts', amount: 1, reason: 'schedule_cancelled', reference: row.id });
  }

  async patch(p: Principal, id: string, input: PatchInput): Promise<ScheduledRow> {
    const row = await this.store.owned(p.workspaceId, id);
    const postType = input.post_type ?? (row.postType as PostType);
    // post_data is checked with the post routes' schema of the entry's post type (unknown keys dropped).
    const { edit, ignored } = input.post_data
      ? parseEdit(this.#d.registry.networks, postType, input.post_data, { platform: row.platform, what: 'scheduled post', refused: REFUSED_IN_POST_DATA }, ['body', 'post_data'])
      : { edit: {}, ignored: [] };
    const editsContent = Object.keys(edit).length > 0;
    if (!editsContent && input.scheduled_time === undefined && input.post_type === undefined && input.status === undefined) {
      throw nothingToUpdate(input.post_data ? ['body', 'post_data'] : ['body'], 'scheduled_time, status, post_type or post_data with fields of the post body', ignored);
    }
    if (input.status !== undefined && input.status !== row.status) {
      if (input.status === 'cancelled') return this.cancel(p.workspaceId, id);
      if (input.status !== 'scheduled') throw new AppError('validation', `status can only be set to 'cancelled' (or 'scheduled' to retry a failed post); use publish-now to publish.`);
    }
    if (!(ALLOWED_FROM.edit as readonly string[]).includes(row.status)) throw conflict('edit', row.status);
    const now = this.#d.clock();
    const at = input.scheduled_time !== undefined ? parseScheduledTime(input.scheduled_time, now) : row.scheduledTime;
    if (row.status === 'failed' && at.getTime() <= now.getTime()) throw new AppError('validation', 'This post failed and its scheduled_time has passed: send a new scheduled_time in the future, or use publish-now.');
    let postData = row.postData as PostBody;
    const edited = editsContent || input.post_type !== undefined;
    if (edited) {
      const merged = storedBody({ ...mergeEdit(postData as Record<string, unknown>, edit), platforms: [row.platform] } as PostBody, row.platform, this.#keys);
      // Validated like a post (limits, media, overrides) without the scheduled_time, which is checked above;
      // new media URLs are imported now and stored as library ids, like at creation.
      const { imported } = await this.#d.publishing.prepare(p, postType, merged, { at: ['body', 'post_data'] });
      postData = withImportedMedia(this.#d.registry.networks, merged, imported);
    }
    const changes = [input.scheduled_time !== undefined ? `rescheduled to ${at.toISOString()}` : null, edited ? 'content edited' : null].filter(Boolean).join(', ') || 'updated';
    const moved = await this.store.transition(id, ALLOWED_FROM.edit, 'scheduled', changes, {
      scheduledTime: at,
      postType,
      postData,
      errorMessage: null,
      claimedUntil: null,
      claimedBy: null,
      retryAt: null,
      // New content needs a new ledger post; a reschedule keeps the old one so its journal still applies.
      ...(edited ? { postId: null, attempts: 0 } : {}),
    });
    if (!moved) throw conflict('edit', (await this.store.owned(p.workspaceId, id)).status);
    await this.#d.queue?.send(moved.id, moved.scheduledTime);
    return moved;
  }

  async publishNow(workspaceId: string, id: string): Promise<ScheduledRow> {
    const row = await this.store.owned(workspaceId, id);
    if (!(ALLOWED_FROM.publishNow as readonly string[]).includes(row.status)) throw conflict('publishNow', row.status);
    if (!this.#d.publishNow) throw new AppError('internal', 'The scheduling worker is not available in this process.');
    const claimed = await this.store.transition(id, ALLOWED_FROM.publishNow, 'publishing', 'publish-now requested', {
      claimedBy: 'publish-now',
      claimedUntil: new Date(this.#d.clock().getTime() + 10 * 60_000),
      errorMessage: null,
    });
    if (!claimed) throw conflict('publishNow', (await this.store.owned(workspaceId, id)).status);
    await this.#d.publishNow(claimed);
    return this.store.owned(workspaceId, id);
  }

  async moveToDraft(workspaceId: string, id: string): Promise<{ row: ScheduledRow; draftId: string }> {
    const row = await this.store.owned(workspaceId, id);
    if (!(ALLOWED_FROM.moveToDraft as readonly string[]).includes(row.status)) throw conflict('moveToDraft', row.status);
    const moved = await this.store.transition(id, ALLOWED_FROM.moveToDraft, 'cancelled', 'moved to drafts');
    if (!moved) throw conflict('moveToDraft', (await this.store.owned(workspaceId, id)).status);
    const [draft] = await this.#d.drafts.saveFromPost(workspaceId, row.postType, row.postData as PostBody, [row.platform], null);
    await this.store.event(this.#d.db, id, 'cancelled', 'cancelled', `draft ${draft!.draft_id} created`);
    await this.#refundIfUnused(moved, row.status);
    return { row: moved, draftId: draft!.draft_id };
  }
}

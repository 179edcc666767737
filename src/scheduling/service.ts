// Scheduled posts: creation (from the post routes or POST /unified/scheduled-posts), the user actions
// on queue entries, and their status rules. Publishing itself is the worker's (worker.ts).
import type { Principal } from '../auth/authenticate.ts';
import type { CreditService } from '../auth/credits.ts';
import type { Platform } from '../auth/scopes.ts';
import type { ConnectionStore } from '../connections/store.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import type { WorkspaceService } from '../auth/workspaces.ts';
import type { PostType } from '../platforms/publishing.ts';
import type { DraftService } from '../publishing/drafts.ts';
import { narrowBody } from '../publishing/drafts.ts';
import type { PlannedTarget } from '../publishing/plan.ts';
import type { PublishingService, PublishReply } from '../publishing/service.ts';
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

const OVERRIDE_KEYS = ['linkedin', 'facebook', 'instagram', 'threads', 'tiktok', 'youtube', 'pinterest'] as const;

/** The body stored for one network: its override only, no draft flags, no scheduled_time anywhere. */
export function storedBody(body: PostBody, platform: string): PostBody {
  const { scheduled_time: _s, ...narrow } = narrowBody(body, platform) as PostBody & { scheduled_time?: string };
  const out = narrow as PostBody & Record<string, unknown>;
  for (const k of OVERRIDE_KEYS) {
    const o = out[k] as Record<string, unknown> | undefined;
    if (o && 'scheduled_time' in o) {
      const { scheduled_time: _x, ...rest } = o;
      out[k] = rest;
    }
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
  async fromPublish(p: Principal, postType: PostType, body: PostBody, targets: PlannedTarget[]): Promise<PublishReply> {
    const now = this.#d.clock();
    const when = new Map<Platform, Date>();
    for (const t of targets) {
      if (!t.scheduledTime || t.draft || when.has(t.platform)) continue;
      const field = (body[t.platform as keyof PostBody] as { scheduled_time?: string } | undefined)?.scheduled_time ? `${t.platform}.scheduled_time` : 'scheduled_time';
      when.set(t.platform, parseScheduledTime(t.scheduledTime, now, field));
    }
    const rows = await this.#create(p, postType, body, when);
    const scheduled = rows.map((r) => ({ platform: r.platform, scheduled_post_id: r.id, scheduled_time: r.scheduledTime.toISOString() }));
    const rest = [...new Set(targets.map((t) => t.platform))].filter((pl) => !when.has(pl));
    if (!rest.length) return { status: 200, body: { success: true, message: 'Scheduled', scheduled } };
    const restBody: PostBody = { ...body, platforms: rest, ...(body.draft_platforms ? { draft_platforms: body.draft_platforms.filter((d) => rest.includes(d.trim().toLowerCase() as Platform)) } : {}) };
    const reply = await this.#d.publishing.publish(p, postType, restBody);
    const b = reply.body;
    const results = b.results ?? (b.drafts ? undefined : [{ platform: rest[0], success: b.success, message: b.message, ...(b.post ? { post: b.post } : {}), ...(b.error ? { error: b.error } : {}) }]);
    const ok = (results as { success: boolean }[] | undefined)?.every((r) => r.success) ?? true;
    return { status: reply.status, body: { success: ok, message: results ? 'Scheduled; other posts completed' : 'Scheduled; drafts saved', scheduled, ...(b.drafts ? { drafts: b.drafts } : {}), ...(results ? { results } : {}) } };
  }

  /** POST /unified/scheduled-posts: every network is scheduled at the body's scheduled_time. */
  async create(p: Principal, postType: PostType, body: PostBody): Promise<ScheduledRow[]> {
    if (body.draft || body.draft_platforms?.length) throw new AppError('validation', 'draft and draft_platforms are not accepted here: use POST /unified/drafts to save drafts.');
    if (!body.scheduled_time) throw new AppError('validation', 'scheduled_time is required.');
    const { targets } = await this.#d.publishing.prepare(p, postType, body);
    const now = this.#d.clock();
    const when = new Map<Platform, Date>();
    for (const t of targets) if (!when.has(t.platform)) when.set(t.platform, parseScheduledTime(t.scheduledTime ?? body.scheduled_time, now));
    return this.#create(p, postType, body, when);
  }

  async #create(p: Principal, postType: PostType, body: PostBody, when: Map<Platform, Date>): Promise<ScheduledRow[]> {
    const conns = await this.#d.connections.list(p.workspaceId);
    const actor = p.keyId ? `key:${p.keyId}` : `user:${p.user?.id}`;
    const rows = await this.#d.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      // One scheduled-post credit per queue entry, in the same transaction: a 402 leaves nothing behind.
      await this.#d.credits.spend({ workspaceId: p.workspaceId, planId: p.planId, type: 'scheduled_posts', amount: when.size, reason: 'schedule' }, tx);
      const out: ScheduledRow[] = [];
      for (const [platform, at] of when) {
        const conn = conns.find((c) => c.platform === platform && c.status === 'connected');
        out.push(
          await this.store.insert(
            tx,
            { workspaceId: p.workspaceId, platform, platformUserId: conn?.accountId ?? null, postType, postData: storedBody(body, platform), scheduledTime: at, actor },
            `scheduled for ${at.toISOString()}`,
          ),
        );
      }
      return out;
    });
    for (const r of rows) await this.#d.queue?.send(r.id, r.scheduledTime);
    return rows;
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
    if (input.status !== undefined && input.status !== row.status) {
      if (input.status === 'cancelled') return this.cancel(p.workspaceId, id);
      if (input.status !== 'scheduled') throw new AppError('validation', `status can only be set to 'cancelled' (or 'scheduled' to retry a failed post); use publish-now to publish.`);
    }
    if (!(ALLOWED_FROM.edit as readonly string[]).includes(row.status)) throw conflict('edit', row.status);
    const now = this.#d.clock();
    const at = input.scheduled_time !== undefined ? parseScheduledTime(input.scheduled_time, now) : row.scheduledTime;
    if (row.status === 'failed' && at.getTime() <= now.getTime()) throw new AppError('validation', 'This post failed and its scheduled_time has passed: send a new scheduled_time in the future, or use publish-now.');
    const postType = input.post_type ?? (row.postType as PostType);
    let postData = row.postData as PostBody;
    const edited = input.post_data !== undefined || input.post_type !== undefined;
    if (edited) {
      postData = storedBody({ ...postData, ...(input.post_data as Partial<PostBody> | undefined), platforms: [row.platform] } as PostBody, row.platform);
      // Validated like a post (limits, media, overrides) without the scheduled_time, which is checked above.
      await this.#d.publishing.prepare(p, postType, postData);
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

// Scheduled posts: creation (from the post routes or POST /unified/scheduled-posts), the user actions
// on queue entries, and their status rules. Publishing itself is the worker's (worker.ts).
import {
  assertNotHeld,
  type DraftService,
  mergeEdit,
  nothingToUpdate,
  parseEdit,
  type PostBody,
  type PublishingService,
  type PublishReply,
  replay,
  requestHash,
  type ScheduledEntryRef,
  storedBody,
  withImportedMedia,
} from '../publishing/index.ts';
import type { Principal } from '../auth/authenticate.ts';
import type { CreditService } from '../auth/credits.ts';
import { assertPlatformsAllowed } from '../auth/scopes.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import type { WorkspaceService } from '../auth/workspaces.ts';
import type { PostType } from '../platforms/publishing.ts';
import type { Networks } from '../platforms/registry.ts';
import { ALLOWED_FROM, conflict, toWire, type ScheduledRow, type ScheduledStore } from './store.ts';
import type { ScheduleQueue } from './queue.ts';
import { parseScheduledTime, validTimeZone } from './time.ts';

export interface SchedulingDeps {
  db: Db;
  publishing: PublishingService;
  drafts: DraftService;
  credits: CreditService;
  workspaces: WorkspaceService;
  clock: () => Date;
  store: ScheduledStore;
  /** The networks: override keys of stored bodies, body schemas of edits. */
  registry: Pick<Networks, 'networks' | 'overrideKeys'>;
  /** Publishes one claimed row now (the worker's execute), for publish-now. */
  publishNow: (row: ScheduledRow) => Promise<void>;
  /** Wake-ups at each entry's time (pg-boss), sent after the rows are committed. */
  queue?: ScheduleQueue | undefined;
  /** Frees a posting queue's slot once no entry of it is waiting any more. */
  releaseSlot?: ((slotId: string) => Promise<boolean>) | undefined;
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

const scheduledList = (rows: ScheduledEntryRef[]) =>
  rows.map((r) => ({ platform: r.platform, scheduled_post_id: r.id, scheduled_time: r.scheduledTime.toISOString() }));

export class SchedulingService {
  readonly store: ScheduledStore;
  readonly #d: SchedulingDeps;

  constructor(deps: SchedulingDeps) {
    this.#d = deps;
    this.store = deps.store;
  }

  async timeZoneOf(workspaceId: string): Promise<string> {
    return validTimeZone((await this.#d.workspaces.byId(workspaceId))?.timeZone);
  }

  async wire(rows: ScheduledRow[], workspaceId: string) {
    const tz = await this.timeZoneOf(workspaceId);
    const now = this.#d.clock();
    return rows.map((r) => toWire(r, tz, now));
  }

  /** POST /unified/scheduled-posts: every network is scheduled at the body's scheduled_time. */
  async create(
    p: Principal,
    postType: PostType,
    body: PostBody,
    idempotencyKey?: string,
  ): Promise<PublishReply<object>> {
    if (body.draft || body.draft_platforms?.length)
      throw new AppError(
        'validation',
        'draft and draft_platforms are not accepted here: use POST /unified/drafts to save drafts.',
      );
    if (!body.scheduled_time) throw new AppError('validation', 'scheduled_time is required.');
    const tz = await this.timeZoneOf(p.workspaceId);
    return this.#d.publishing.schedule(p, postType, body, {
      idempotencyKey,
      claim: { requestHash: requestHash({ route: 'scheduled-posts', postType, body }), request: body },
      respond: (entries) => {
        const now = this.#d.clock();
        // The writer is this service's store: its entries are whole rows.
        const items = (entries as ScheduledRow[]).map((r) => toWire(r, tz, now));
        return {
          status: 200,
          body: {
            success: true,
            message: 'Scheduled',
            scheduled: scheduledList(entries),
            data: { scheduled_posts: items, total: items.length },
            error: null,
          },
        };
      },
    });
  }

  /** POST /unified/drafts/{id}/schedule: the draft becomes a queue entry and leaves the drafts, in one transaction. */
  async scheduleDraft(
    p: Principal,
    draftId: string,
    scheduledTime: string,
    idempotencyKey?: string,
  ): Promise<PublishReply<object>> {
    const hash = requestHash({ route: 'drafts/schedule', draftId, scheduledTime });
    const prior = idempotencyKey ? await this.#d.publishing.ledger.findByKey(p.workspaceId, idempotencyKey) : undefined;
    if (prior) {
      // The draft is gone by now: the key's scope is checked against the network it was scheduled for.
      if (prior.requestHash === hash)
        assertPlatformsAllowed(p.scope, [(prior.request as { platform: string }).platform]);
      return replay(prior, hash);
    }
    const draft = await this.#d.drafts.get(p.workspaceId, draftId);
    assertPlatformsAllowed(p.scope, [draft.platform]);
    assertNotHeld(draft);
    const body = {
      ...storedBody(draft.body as PostBody, draft.platform, this.#d.registry.overrideKeys),
      draft: false,
      scheduled_time: scheduledTime,
    };
    return this.#d.publishing.schedule(p, draft.postType as PostType, body, {
      idempotencyKey,
      replayChecked: true,
      claim: {
        requestHash: hash,
        request: { draft_id: draftId, platform: draft.platform, scheduled_time: scheduledTime },
      },
      fromDraft: draftId,
      respond: (entries) => ({
        status: 200,
        body: { success: true, message: 'Scheduled', draft_id: draftId, scheduled: scheduledList(entries) },
      }),
    });
  }

  async list(
    p: Principal,
    f: {
      platform?: string | undefined;
      platformUserId?: string | undefined;
      status?: string | undefined;
      limit: number;
      offset: number;
    },
  ) {
    return this.store.list(p.workspaceId, { ...f, platforms: [...p.scope.platforms] });
  }

  async cancel(workspaceId: string, id: string, reason = 'cancelled by the user'): Promise<ScheduledRow> {
    const row = await this.store.owned(workspaceId, id);
    if (!(ALLOWED_FROM.cancel as readonly string[]).includes(row.status)) throw conflict('cancel', row.status);
    const moved = await this.store.transition(
      id,
      ALLOWED_FROM.cancel,
      'cancelled',
      row.status === 'publishing'
        ? `${reason} while publishing: the worker stops before its next network call`
        : reason,
      {},
      undefined,
      'post.deleted',
    );
    if (!moved) throw conflict('cancel', (await this.store.owned(workspaceId, id)).status);
    await this.#refundIfUnused(moved, row.status);
    if (moved.queueSlotId) await this.#d.releaseSlot?.(moved.queueSlotId);
    return moved;
  }

  /** A queue entry that never reached a network gets its scheduled-post credit back. */
  async #refundIfUnused(row: ScheduledRow, from: string): Promise<void> {
    if (from !== 'scheduled' || row.postId) return;
    await this.#d.credits.refund({
      workspaceId: row.workspaceId,
      type: 'scheduled_posts',
      amount: 1,
      reason: 'schedule_cancelled',
      reference: row.id,
    });
  }

  async patch(p: Principal, id: string, input: PatchInput): Promise<ScheduledRow> {
    const row = await this.store.owned(p.workspaceId, id);
    const postType = input.post_type ?? (row.postType as PostType);
    // post_data is checked with the post routes' schema of the entry's post type (unknown keys dropped).
    const { edit, ignored } = input.post_data
      ? parseEdit(
          this.#d.registry.networks,
          postType,
          input.post_data,
          { platform: row.platform, what: 'scheduled post', refused: REFUSED_IN_POST_DATA },
          ['body', 'post_data'],
        )
      : { edit: {}, ignored: [] };
    const editsContent = Object.keys(edit).length > 0;
    if (
      !editsContent &&
      input.scheduled_time === undefined &&
      input.post_type === undefined &&
      input.status === undefined
    ) {
      throw nothingToUpdate(
        input.post_data ? ['body', 'post_data'] : ['body'],
        'scheduled_time, status, post_type or post_data with fields of the post body',
        ignored,
      );
    }
    if (input.status !== undefined && input.status !== row.status) {
      if (input.status === 'cancelled') return this.cancel(p.workspaceId, id);
      if (input.status !== 'scheduled')
        throw new AppError(
          'validation',
          `status can only be set to 'cancelled' (or 'scheduled' to retry a failed post); use publish-now to publish.`,
        );
    }
    if (!(ALLOWED_FROM.edit as readonly string[]).includes(row.status)) throw conflict('edit', row.status);
    const now = this.#d.clock();
    const at = input.scheduled_time !== undefined ? parseScheduledTime(input.scheduled_time, now) : row.scheduledTime;
    if (row.status === 'failed' && at.getTime() <= now.getTime())
      throw new AppError(
        'validation',
        'This post failed and its scheduled_time has passed: send a new scheduled_time in the future, or use publish-now.',
      );
    let postData = row.postData as PostBody;
    const edited = editsContent || input.post_type !== undefined;
    if (edited) {
      const merged = storedBody(
        { ...mergeEdit(postData as Record<string, unknown>, edit), platforms: [row.platform] } as PostBody,
        row.platform,
        this.#d.registry.overrideKeys,
      );
      // Validated like a post (limits, media, overrides) without the scheduled_time, which is checked above;
      // new media URLs are imported now and stored as library ids, like at creation.
      const { imported } = await this.#d.publishing.prepare(p, postType, merged, { at: ['body', 'post_data'] });
      postData = withImportedMedia(this.#d.registry.networks, merged, imported);
    }
    const changes =
      [
        input.scheduled_time !== undefined ? `rescheduled to ${at.toISOString()}` : null,
        edited ? 'content edited' : null,
      ]
        .filter(Boolean)
        .join(', ') || 'updated';
    const moved = await this.store.transition(
      id,
      ALLOWED_FROM.edit,
      'scheduled',
      changes,
      {
        scheduledTime: at,
        postType,
        postData,
        errorMessage: null,
        claimedUntil: null,
        claimedBy: null,
        retryAt: null,
        // New content needs a new ledger post; a reschedule keeps the old one so its journal still applies.
        ...(edited ? { postId: null, attempts: 0 } : {}),
        // A queued entry given a time of its own leaves its queue slot (and is no longer held by a pause).
        ...(input.scheduled_time !== undefined && row.queueSlotId ? { queueSlotId: null, held: false } : {}),
      },
      undefined,
      'post.rescheduled',
    );
    if (!moved) throw conflict('edit', (await this.store.owned(p.workspaceId, id)).status);
    if (row.queueSlotId && !moved.queueSlotId) await this.#d.releaseSlot?.(row.queueSlotId);
    await this.#d.queue?.send(moved.id, moved.scheduledTime);
    return moved;
  }

  async publishNow(workspaceId: string, id: string): Promise<ScheduledRow> {
    const row = await this.store.owned(workspaceId, id);
    if (!(ALLOWED_FROM.publishNow as readonly string[]).includes(row.status)) throw conflict('publishNow', row.status);
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
    if (!(ALLOWED_FROM.moveToDraft as readonly string[]).includes(row.status))
      throw conflict('moveToDraft', row.status);
    const moved = await this.store.transition(id, ALLOWED_FROM.moveToDraft, 'cancelled', 'moved to drafts');
    if (!moved) throw conflict('moveToDraft', (await this.store.owned(workspaceId, id)).status);
    const [draft] = await this.#d.drafts.saveFromPost(
      workspaceId,
      row.postType,
      row.postData as PostBody,
      [row.platform],
      null,
    );
    await this.store.event(this.#d.db, id, 'cancelled', 'cancelled', `draft ${draft!.draft_id} created`);
    await this.#refundIfUnused(moved, row.status);
    if (moved.queueSlotId) await this.#d.releaseSlot?.(moved.queueSlotId);
    return { row: moved, draftId: draft!.draft_id };
  }
}

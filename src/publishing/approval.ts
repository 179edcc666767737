// The approval step for posts created by tools (MCP, ChatGPT Actions, the workspace agent). With the workspace setting
// `tool_posts_need_approval`, a tool's post is checked exactly as publishing would check it, then held as drafts with
// status `pending_approval` — nothing reaches a network and no credit is spent — until a member of the workspace,
// signed in, approves one with POST /unified/drafts/{id}/approve, which publishes (or schedules) it through the normal
// path. Without the setting, a tool's post goes straight through publish(). Other tool calls that write to a network or
// remove something are held the same way, as rows of kind 'action' (src/tools/pending-actions.ts). A member or program
// may also send a post for approval itself (POST /unified/drafts with pending_approval: true, `submitForApproval`):
// it is held the same way, and another member approves it.
import { z } from 'zod';
import type { Principal } from '../auth/authenticate.ts';
import type { Db } from '../db/client.ts';
import { and, eq } from '../db/orm.ts';
import { workspaces } from '../db/schema.ts';
import { drafts } from '../db/schema-publishing.ts';
import { AppError } from '../errors.ts';
import type { PostType } from '../platforms/publishing.ts';
import type { Platform } from '../platforms/slugs.ts';
import type { DraftService } from './drafts.ts';
import { withImportedMedia } from './media-refs.ts';
import type { NetworkContract } from '../platforms/contract.ts';
import type { PublishReply, PublishResult } from './results.ts';
import type { PostBody } from './schemas.ts';
import type { PostValidator } from './validate.ts';
import type { ScheduleWriter } from './submit.ts';

/** The tool surfaces whose posts the setting holds (src/tools/tool.ts `Surface`). */
export type ToolSurface = 'mcp' | 'gpt' | 'agent';

/** Who made a post the approval setting holds: a tool surface, or a feed the workspace follows. */
export type HoldingSurface = ToolSurface | 'feed';

export const PENDING_APPROVAL = 'pending_approval';

/** requested_via of a post sent for approval through the API (the web app's "Send for approval"). */
export const SENT_FOR_APPROVAL = 'rest';

/** The longest reason a rejection keeps. */
export const REASON_MAX = 500;

/**
 * A tool action held for approval (kind action, src/tools/pending-actions.ts) is no post: it is not edited, published
 * or scheduled.
 */
export function assertPost(draft: { kind: string }): void {
  if (draft.kind === 'action')
    throw new AppError(
      'conflict',
      'This is a tool action held for approval, not a post: approve it with POST /unified/drafts/{id}/approve, or delete it to reject it.',
    );
}

/**
 * A tool's post waiting for approval is published or scheduled only by approving it (POST
 * /unified/drafts/{id}/approve).
 */
export function assertNotHeld(draft: { status: string; kind: string }): void {
  assertPost(draft);
  if (draft.status === PENDING_APPROVAL)
    throw new AppError(
      'conflict',
      'This post waits for approval: a member approves it with POST /unified/drafts/{id}/approve.',
    );
}

export const heldDraftRefSchema = z.object({
  platform: z.string(),
  draft_id: z.string(),
  status: z.enum(['draft', PENDING_APPROVAL]),
});
export type HeldDraftRef = z.infer<typeof heldDraftRefSchema>;

/** The answer when a tool's post is held: what a model reads and tells its user. */
export const heldReplySchema = z.object({
  success: z.literal(true),
  pending_approval: z.literal(true),
  message: z.string(),
  drafts: z.array(heldDraftRefSchema),
});
export type HeldReply = z.infer<typeof heldReplySchema>;

const SENT_MESSAGE =
  'Sent for approval: the post is saved as drafts pending approval; another member of the workspace approves it (POST /unified/drafts/{id}/approve) or rejects it.';

const HELD_MESSAGE =
  'Not published yet: this workspace requires approval of posts made by assistants. The post is saved as drafts pending approval; ' +
  'a member of the workspace must approve it in Herald (POST /unified/drafts/{id}/approve) before it is published.';

export interface ApprovalDeps {
  db: Db;
  drafts: DraftService;
  validator: PostValidator;
  schedule: ScheduleWriter;
  networks: readonly NetworkContract[];
  clock: () => Date;
  /** The normal path: publishing's publish(). */
  publish: (p: Principal, postType: PostType, body: PostBody, idempotencyKey?: string) => Promise<PublishReply<object>>;
}

/** Who a principal is, as a held draft records it: the member, else the API key. */
export function requesterOf(p: Principal): { requestedByUser: string | null; requestedByKey: string | null } {
  return { requestedByUser: p.user?.id ?? null, requestedByKey: p.user ? null : p.keyId };
}

/** Whether a principal is a member acting through their own session (not an API key, not a chat connector's token). */
export function isMemberSession(p: Principal): boolean {
  return p.kind === 'jwt' && p.user !== null && !p.oauthGrantId;
}

export class Approvals {
  readonly #d: ApprovalDeps;

  constructor(deps: ApprovalDeps) {
    this.#d = deps;
  }

  /** The workspace setting. */
  async required(workspaceId: string): Promise<boolean> {
    const [row] = await this.#d.db
      .select({ on: workspaces.toolPostsNeedApproval })
      .from(workspaces)
      .where(eq(workspaces.id, workspaceId));
    return row?.on ?? false;
  }

  /**
   * A post made by a tool: published as publish() would, unless the workspace holds tools' posts for approval. A body
   * that only saves drafts (`draft: true`, or all its networks in `draft_platforms`) publishes nothing and is never
   * held.
   */
  async submitFromTool(
    caller: { principal: Principal; surface: HoldingSurface },
    postType: PostType,
    body: PostBody,
  ): Promise<PublishReply<PublishResult | HeldReply>> {
    const p = caller.principal;
    // Only drafts asked for (draft: true, or every network in draft_platforms): nothing to publish, nothing to hold.
    const draftsOnly =
      body.draft === true ||
      (body.platforms.length > 0 && body.platforms.every((pl) => body.draft_platforms?.includes(pl)));
    if (draftsOnly || !(await this.required(p.workspaceId))) {
      return (await this.#d.publish(p, postType, body)) as PublishReply<PublishResult>;
    }
    return { status: 200, body: await this.#hold(p, caller.surface, postType, body, HELD_MESSAGE) };
  }

  /**
   * A post a member (or a program) sends for approval: checked as publishing would check it, then held like a tool's
   * post, whatever the workspace setting. `draft: true` here would hold nothing, so it is refused.
   */
  async submitForApproval(p: Principal, postType: PostType, body: PostBody): Promise<HeldReply> {
    if (body.draft === true)
      throw new AppError('validation', [
        {
          loc: ['body', 'draft'],
          msg: 'A post sent for approval is not a plain draft: leave draft out.',
          type: 'value_error',
        },
      ]);
    return this.#hold(p, SENT_FOR_APPROVAL, postType, body, SENT_MESSAGE);
  }

  /**
   * Rejects what waits for approval (a post or an action): it leaves the drafts, and post.rejected records who and why.
   * Anything not waiting: 409 (a plain draft is deleted with DELETE /unified/drafts/{id}).
   */
  async reject(p: Principal, id: string, reason: string | null): Promise<void> {
    const draft = await this.#d.drafts.get(p.workspaceId, id);
    if (draft.status !== PENDING_APPROVAL)
      throw new AppError('conflict', 'This draft is not waiting for approval: nothing to reject.');
    await this.#d.drafts.remove(p.workspaceId, draft.id, undefined, {
      verdict: 'rejected',
      by: p.user?.id ?? (p.keyId ? `key:${p.keyId}` : null),
      reason: reason?.trim().slice(0, REASON_MAX) || null,
    });
  }

  /** Checks the post as publishing would (plan, limits, media, scheduled time), then saves it as held drafts. */
  async #hold(
    p: Principal,
    surface: HoldingSurface | typeof SENT_FOR_APPROVAL,
    postType: PostType,
    body: PostBody,
    message: string,
  ): Promise<HeldReply> {
    const { targets, imported } = await this.#d.validator.prepare(p, postType, body);
    const now = this.#d.clock();
    for (const t of targets) {
      if (!t.scheduledTime || t.draft) continue;
      const own = (body[t.platform as keyof PostBody] as { scheduled_time?: string } | undefined)?.scheduled_time;
      this.#d.schedule.parseTime(t.scheduledTime, now, own ? `${t.platform}.scheduled_time` : 'scheduled_time');
    }
    const asDraft = [...new Set(targets.filter((t) => t.draft).map((t) => t.platform))];
    const held = [...new Set(targets.filter((t) => !t.draft).map((t) => t.platform))].filter(
      (pl) => !asDraft.includes(pl),
    );
    const stored = withImportedMedia(this.#d.networks, body, imported);
    const refs = await this.#d.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      const plain = asDraft.length
        ? await this.#d.drafts.saveFromPost(p.workspaceId, postType, stored, asDraft, null, db)
        : [];
      const pending = held.length
        ? await this.#d.drafts.saveFromPost(p.workspaceId, postType, stored, held, null, db, {
            status: 'pending_approval',
            requestedVia: surface,
            ...requesterOf(p),
          })
        : [];
      return [...pending, ...plain] as HeldDraftRef[];
    });
    return { success: true, pending_approval: true, message, drafts: refs };
  }

  /**
   * A member approves a held draft: it is published (or scheduled, with its scheduled_time) through publish(), and
   * leaves the drafts once that succeeded. A failure keeps it pending, to be edited and approved again. Two
   * approvals at once share one Idempotency-Key (the draft's id and version): one publishes, the other gets 409.
   */
  async approve(p: Principal, id: string): Promise<{ reply: PublishReply<PublishResult>; platform: Platform }> {
    if (!isMemberSession(p)) {
      throw new AppError(
        'forbidden',
        'Only a member of the workspace, signed in to Herald, can approve a post: not an API key or a chat connector.',
      );
    }
    const draft = await this.#d.drafts.get(p.workspaceId, id);
    if (draft.status !== PENDING_APPROVAL) {
      throw new AppError(
        'conflict',
        'This draft is not waiting for approval: publish it with POST /unified/drafts/{id}/publish.',
      );
    }
    // A post a member sent for approval is approved by someone else: approving one's own would make it a publish.
    if (draft.requestedVia === SENT_FOR_APPROVAL && draft.requestedByUser === p.user?.id) {
      throw new AppError(
        'forbidden',
        'You sent this post for approval: another member of the workspace approves it (you may edit or reject it).',
      );
    }
    const body = { ...(draft.body as PostBody), draft: false, draft_platforms: [] };
    const key = `approve:${draft.id}:${draft.updatedAt.getTime()}`;
    const reply = (await this.#d.publish(p, draft.postType as PostType, body, key)) as PublishReply<PublishResult>;
    if (reply.body.success === true) {
      await this.#d.drafts
        .remove(p.workspaceId, draft.id, undefined, { verdict: 'approved', by: p.user?.id ?? null })
        .catch((err: unknown) => {
          // A concurrent approval that replayed this answer removed it first.
          if (!(err instanceof AppError && err.code === 'not_found')) throw err;
        });
    } else {
      // A new version, so approving again after a fix retries instead of replaying this failure.
      await this.#d.db
        .update(drafts)
        .set({ updatedAt: new Date(Math.max(this.#d.clock().getTime(), draft.updatedAt.getTime() + 1)) })
        .where(and(eq(drafts.id, draft.id), eq(drafts.workspaceId, p.workspaceId)));
    }
    return { reply, platform: draft.platform as Platform };
  }
}

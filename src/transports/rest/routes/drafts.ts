// /unified/drafts: drafts per network, their edits, and publishing them.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import { assertPlatformsAllowed } from '../../../auth/scopes.ts';
import {
  anyPostBody,
  assertNotHeld,
  assertPost,
  dateTime,
  heldDraftRefSchema,
  draftSchema,
  draftToWire,
  mergeEdit,
  narrowBody,
  nothingToUpdate,
  parseEdit,
  parsePostBody,
  type PostBody,
  type PublishResult,
  publishResultSchema,
  REASON_MAX,
  scheduledRefSchema,
} from '../../../publishing/index.ts';
import { approveAction } from '../../../tools/approve-action.ts';
import { ACTION_STATES, actionWireSchema } from '../../../publishing/index.ts';
import { principalOf } from '../access.ts';
import { errorResponses, workspaceSecurity } from '../schemas.ts';
import {
  bodyPlatforms,
  idempotencyHeaders,
  NULL_NOTE,
  nullMeansUnset,
  POST_BODY_LIMIT,
  requirePostType,
} from './posts.ts';
import { onePlatform } from '../../../platforms/arguments.ts';

const postType = z.enum(['text', 'image', 'carousel', 'video']);
const REFUSED_IN_EDIT = {
  draft: 'A draft stays a draft: publish it with POST /unified/drafts/{id}/publish.',
  draft_platforms: 'A draft stays a draft: publish it with POST /unified/drafts/{id}/publish.',
};
const idParams = z.object({ id: z.uuid() });
const ok = z.object({ success: z.boolean(), message: z.string().nullable() });
const scheduledDraft = z.object({
  success: z.boolean(),
  message: z.string(),
  draft_id: z.string(),
  scheduled: z.array(scheduledRefSchema),
});

export async function draftRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Every post route's fields, for the document; the handlers check bodies against post_type's own schema.
  const createBody = anyPostBody(ctx.platforms.networks).extend({ post_type: postType });
  const sendBody = createBody.extend({
    pending_approval: z
      .boolean()
      .optional()
      .describe(
        'true: send the post for approval instead of saving a plain draft. It is checked as publishing would check it (scheduled_time included) and held as drafts with status pending_approval; another member approves it (POST /unified/drafts/{id}/approve: published, or scheduled at its scheduled_time) or rejects it (POST /unified/drafts/{id}/reject)',
      ),
  });
  const access = { kind: 'workspace' as const, feature: 'drafts_enabled' as const };

  async function owned(req: { params: { id: string } } & Parameters<typeof principalOf>[0]) {
    const p = principalOf(req);
    const draft = await ctx.drafts.get(p.workspaceId, req.params.id);
    assertPlatformsAllowed(p.scope, [draft.platform]);
    return { p, draft };
  }

  const notHeld = assertNotHeld;

  r.post(
    '/unified/drafts',
    {
      config: { access: { ...access, platforms: bodyPlatforms(ctx.platforms) } },
      bodyLimit: POST_BODY_LIMIT,
      preValidation: [nullMeansUnset, requirePostType],
      schema: {
        tags: ['drafts'],
        operationId: 'createDrafts',
        summary: 'Save a post as drafts (one per network)',
        responseDescription: 'The drafts saved, one per network.',
        description: `Save a post as drafts (one per network), or with pending_approval: true send it for approval. ${NULL_NOTE} Without post_type: 400.`,
        security: workspaceSecurity,
        body: sendBody,
        response: {
          200: z.object({
            success: z.boolean(),
            message: z.string(),
            pending_approval: z.boolean().optional().describe('true when the post was sent for approval'),
            drafts: z.array(heldDraftRefSchema),
          }),
          ...errorResponses(402, 404),
        },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const { post_type, pending_approval, ...raw } = req.body as {
        post_type: z.infer<typeof postType>;
        pending_approval?: boolean;
      } & Record<string, unknown>;
      if (pending_approval) {
        const body = parsePostBody(ctx.platforms.networks, post_type, raw);
        return ctx.publishing.approvals.submitForApproval(p, post_type, body);
      }
      // The checks of the post routes with draft: true: limits, this workspace's media, URLs imported.
      const drafts = await ctx.drafts.create(p, post_type, parsePostBody(ctx.platforms.networks, post_type, raw));
      return { success: true, message: 'Saved as drafts', drafts };
    },
  );

  r.get(
    '/unified/drafts',
    {
      config: { access },
      schema: {
        tags: ['drafts'],
        operationId: 'listDrafts',
        summary: 'List drafts',
        responseDescription: 'The drafts of the workspace.',
        security: workspaceSecurity,
        querystring: z.object({
          platform: z.string().optional(),
          platform_user_id: z.string().optional(),
          status: z
            .enum(['draft', ...ACTION_STATES])
            .optional()
            .describe(
              "Only drafts in this status (pending_approval: tools' posts and actions waiting for approval; approved, failed: actions approved). Without it: draft and pending_approval",
            ),
          limit: z.coerce.number().int().min(1).max(100).default(50),
          offset: z.coerce.number().int().min(0).default(0),
        }),
        response: { 200: z.object({ success: z.boolean(), data: z.array(draftSchema), total: z.number().int() }) },
      },
    },
    async (req) => {
      const p = principalOf(req);
      // An unknown network is 400 (as on every route, and the get_queued_posts tool), before the key's scope.
      const platform = req.query.platform ? onePlatform(ctx.platforms, req.query.platform) : undefined;
      if (platform) assertPlatformsAllowed(p.scope, [platform]);
      const { rows, total } = await ctx.drafts.list(p.workspaceId, {
        platform,
        platformUserId: req.query.platform_user_id,
        status: req.query.status,
        limit: req.query.limit,
        offset: req.query.offset,
      });
      const visible = rows.filter((d) => p.scope.platforms.has(d.platform as never));
      const who = await ctx.drafts.requesters(p.workspaceId, visible);
      return {
        success: true,
        data: visible.map((d) => draftToWire(ctx.platforms.networks, d, who.get(d.id))),
        total: visible.length === rows.length ? total : visible.length,
      };
    },
  );

  r.get(
    '/unified/drafts/:id',
    {
      config: { access },
      schema: {
        tags: ['drafts'],
        operationId: 'getDraft',
        summary: 'One draft',
        responseDescription: 'The draft.',
        security: workspaceSecurity,
        params: idParams,
        response: { 200: ok.extend({ data: draftSchema }) },
      },
    },
    async (req) => {
      const { p, draft } = await owned(req);
      const who = await ctx.drafts.requesters(p.workspaceId, [draft]);
      return { success: true, message: null, data: draftToWire(ctx.platforms.networks, draft, who.get(draft.id)) };
    },
  );

  r.patch(
    '/unified/drafts/:id',
    {
      config: { access },
      bodyLimit: POST_BODY_LIMIT,
      schema: {
        tags: ['drafts'],
        operationId: 'updateDraft',
        summary: 'Edit a draft',
        responseDescription: 'The draft as edited.',
        security: workspaceSecurity,
        params: idParams,
        body: createBody.omit({ platforms: true }).partial(),
        response: { 200: ok.extend({ data: draftSchema }) },
      },
    },
    async (req) => {
      const { p, draft } = await owned(req);
      assertPost(draft);
      const { post_type, ...sent } = req.body;
      const type = post_type ?? (draft.postType as z.infer<typeof postType>);
      const { edit } = parseEdit(
        ctx.platforms.networks,
        type,
        sent,
        { platform: draft.platform, what: 'draft', refused: REFUSED_IN_EDIT },
        ['body'],
      );
      if (!Object.keys(edit).length && !post_type)
        throw nothingToUpdate(['body'], 'post_type or fields of the post body', []);
      const body = narrowBody(
        mergeEdit(draft.body as Record<string, unknown>, edit) as PostBody,
        draft.platform,
        ctx.platforms.overrideKeys,
      );
      const row = await ctx.drafts.edit(p, draft.id, type, body);
      return { success: true, message: 'Draft updated', data: draftToWire(ctx.platforms.networks, row) };
    },
  );

  r.delete(
    '/unified/drafts/:id',
    {
      config: { access },
      schema: {
        tags: ['drafts'],
        operationId: 'deleteDraft',
        summary: 'Delete a draft',
        responseDescription: 'The draft is deleted.',
        security: workspaceSecurity,
        params: idParams,
        response: { 200: ok },
      },
    },
    async (req) => {
      const { p, draft } = await owned(req);
      // A post held for approval deleted by a member is rejected (post.rejected).
      await ctx.drafts.remove(p.workspaceId, draft.id, undefined, {
        verdict: 'rejected',
        by: p.user?.id ?? (p.keyId ? `key:${p.keyId}` : null),
      });
      return { success: true, message: 'Draft deleted' };
    },
  );

  r.post(
    '/unified/drafts/:id/reject',
    {
      config: { access: { kind: 'workspace' } },
      schema: {
        tags: ['drafts'],
        operationId: 'rejectDraft',
        summary: 'Reject a post or action waiting for approval, with a reason',
        responseDescription: 'Rejected: it left the drafts.',
        description:
          "What waits for approval (status pending_approval: a post sent for approval, a tool's post or action) leaves the drafts; the event post.rejected records who rejected it and the reason (for a post). " +
          'A draft not waiting for approval: 409 (delete it with DELETE /unified/drafts/{id}).',
        security: workspaceSecurity,
        params: idParams,
        body: z.object({ reason: z.string().max(REASON_MAX).nullish().describe('Why, for the member who asked') }),
        response: { 200: ok, ...errorResponses(409) },
      },
    },
    async (req) => {
      const { p, draft } = await owned(req);
      await ctx.publishing.approvals.reject(p, draft.id, req.body.reason ?? null);
      return { success: true, message: 'Rejected' };
    },
  );

  r.post(
    '/unified/drafts/:id/publish',
    {
      config: { access: { ...access } },
      schema: {
        tags: ['drafts'],
        operationId: 'publishDraft',
        summary: 'Publish a draft now (spends a post credit)',
        responseDescription: 'The publish result (as the post routes), with the draft id.',
        security: workspaceSecurity,
        params: idParams,
        response: { 200: publishResultSchema.extend({ draft_id: z.string() }), ...errorResponses(402, 409) },
      },
    },
    async (req, reply) => {
      const { p, draft } = await owned(req);
      notHeld(draft);
      const body = { ...(draft.body as PostBody), draft: false, draft_platforms: [] };
      const result = await ctx.publishing.publish(p, draft.postType as z.infer<typeof postType>, body);
      const out = result.body as PublishResult;
      if (out.success === true) await ctx.drafts.remove(p.workspaceId, draft.id);
      return reply.code(result.status as 200).send({ ...out, draft_id: draft.id });
    },
  );

  r.post(
    '/unified/drafts/:id/schedule',
    {
      config: { access: { ...access, feature: 'scheduling_enabled' } },
      schema: {
        tags: ['drafts'],
        operationId: 'scheduleDraft',
        summary: 'Schedule a draft (it becomes a scheduled post and leaves the drafts)',
        responseDescription: 'Scheduled: the queue entry made from the draft.',
        security: workspaceSecurity,
        params: idParams,
        headers: idempotencyHeaders,
        body: z.object({ scheduled_time: dateTime }),
        response: { 200: scheduledDraft, ...errorResponses(402, 409) },
      },
    },
    async (req, reply) => {
      // The held check is scheduleDraft's, after its idempotency replay: a replay must answer though the draft is gone.
      const result = await ctx.scheduling.scheduleDraft(
        principalOf(req),
        req.params.id,
        req.body.scheduled_time,
        req.headers['idempotency-key'],
      );
      return reply.code(result.status as 200).send(result.body as z.infer<typeof scheduledDraft>);
    },
  );

  r.post(
    '/unified/drafts/:id/approve',
    {
      config: { access: { kind: 'workspace' } },
      schema: {
        tags: ['drafts'],
        operationId: 'approveDraft',
        summary:
          "Approve a tool's post or action waiting for approval: publish the post now (or schedule it at its scheduled_time), or run the action once",
        responseDescription:
          'The publish result (as the post routes) with the draft id, or for an action its recorded outcome.',
        description:
          'With the workspace setting tool_posts_need_approval, posts made by tools (MCP, ChatGPT Actions, the agent) wait as drafts with status pending_approval. ' +
          'A member of the workspace, signed in (a user session with X-Workspace-Id; not an API key or a chat connector), approves one here: it is published through the normal path ' +
          '(spends a post credit) and leaves the drafts once published or scheduled. A failure keeps it pending: edit it (PATCH) and approve again. ' +
          'A draft not waiting for approval: 409. ' +
          'A held tool action (kind action: a reply to a comment, a disconnect) runs once, as the approving member (their permissions checked again), ' +
          'and stays listed with status approved or failed and its result; approving it again: 409. Delete it to reject it.',
        security: workspaceSecurity,
        params: idParams,
        response: {
          200: z.union([
            // The action's answer first: a post's answer never has kind 'action'.
            z.object({
              success: z.boolean(),
              message: z.string(),
              approved: z.literal(true),
              kind: z.literal('action'),
              draft_id: z.string(),
              action: actionWireSchema,
            }),
            publishResultSchema.extend({ draft_id: z.string(), approved: z.boolean() }),
          ]),
          ...errorResponses(402, 409),
        },
      },
    },
    async (req, reply) => {
      const p = principalOf(req);
      // The draft's network is checked against the caller's scope before anything else, as on the other draft routes.
      const held = await ctx.drafts.get(p.workspaceId, req.params.id);
      assertPlatformsAllowed(p.scope, [held.platform]);
      if (held.kind === 'action') return approveAction(ctx, p, held);
      const { reply: result } = await ctx.publishing.approvals.approve(p, req.params.id);
      return reply
        .code(result.status as 200)
        .send({ ...result.body, draft_id: req.params.id, approved: result.body.success === true });
    },
  );
}

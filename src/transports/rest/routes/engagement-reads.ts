// The inbox's read state, per member: which comments they have read, so "unread first" holds in every browser they
// sign in from. A member's own (a session); an API key has no member to keep it for.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../errors.ts';
import { principalOf } from '../access.ts';
import { workspaceSecurity } from '../schemas.ts';
import type { EngagementKit } from './engagement-common.ts';

const MARK_MAX = 500;

const readRef = z.object({
  platform: z.string().min(1).max(40),
  comment_id: z.string().min(1).max(500).describe('The id as GET /unified/comments gives it (a comment or a reply)'),
});

/** The member behind the request: read state is theirs, so an API key is refused. */
function memberOf(req: FastifyRequest) {
  const p = principalOf(req);
  if (!p.user || p.kind !== 'jwt')
    throw new AppError('forbidden', 'Read state is kept per member: sign in as a member of the workspace.');
  return { workspaceId: p.workspaceId, userId: p.user.id, scope: p.scope };
}

export function readRoutes(app: FastifyInstance, { ctx, inboxAccess, platformsOf }: EngagementKit): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/unified/comments/read',
    {
      // No network is named: the read ids are the member's own, filtered by the session's network scope in the handler.
      config: { access: { kind: 'workspace' as const, feature: 'inbox_enabled' as const } },
      schema: {
        tags: ['engagement'],
        operationId: 'listReadComments',
        summary: 'The comments the signed-in member has read in the inbox',
        responseDescription: 'Their read comments, the most recently read first (at most 5,000).',
        description:
          'Read state is per member and workspace, kept by Herald so the inbox shows unread comments first in any browser. A member session only: an API key gets 403.',
        security: workspaceSecurity,
        response: {
          200: z.object({
            success: z.boolean(),
            read: z.array(readRef.extend({ read_at: z.string() })),
          }),
        },
      },
    },
    async (req) => {
      const m = memberOf(req);
      const rows = await ctx.engagement.inbox.readBy(m.workspaceId, m.userId);
      return {
        success: true,
        read: rows
          .filter((row) => m.scope.platforms.has(row.platform as never))
          .map((row) => ({ platform: row.platform, comment_id: row.comment_id, read_at: row.read_at.toISOString() })),
      };
    },
  );

  r.post(
    '/unified/comments/read',
    {
      config: inboxAccess((req) => {
        const b = (req.body ?? {}) as { comments?: { platform?: unknown }[] };
        // Known networks only: an unknown one is the handler's 400, as on every route.
        const named = Array.isArray(b.comments) ? b.comments.map((c) => String(c?.platform ?? '').toLowerCase()) : [];
        return [...new Set(named)].filter((p) => ctx.platforms.has(p));
      }),
      schema: {
        tags: ['engagement'],
        operationId: 'markCommentsRead',
        summary: 'Mark comments read for the signed-in member',
        responseDescription: 'How many comments were marked read.',
        description: `Up to ${MARK_MAX} comments per request, each by network and id. Marking one again moves its read time. A member session only: an API key gets 403.`,
        security: workspaceSecurity,
        body: z.object({ comments: z.array(readRef).min(1).max(MARK_MAX) }),
        response: { 200: z.object({ success: z.boolean(), marked: z.number().int() }) },
      },
    },
    async (req) => {
      const m = memberOf(req);
      const refs = req.body.comments.map((c) => ({
        platform: platformsOf(req, c.platform)[0]!,
        comment_id: c.comment_id,
      }));
      await ctx.engagement.inbox.markRead(m.workspaceId, m.userId, refs);
      return { success: true, marked: new Set(refs.map((x) => `${x.platform}:${x.comment_id}`)).size };
    },
  );
}

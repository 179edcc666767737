// Members and invitations of a workspace. Nobody is added without consent: owners invite an address,
// the invitee accepts with the token (mailed to them, and shown once to the inviter).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import { MAIL_NOT_CONFIGURED } from '../../../mail.ts';
import { userOf } from '../access.ts';
import { errorResponses, userSecurity, workspaceIdParams } from '../schemas.ts';
import { workspaceMember } from './workspace-member.ts';
import { workspaceSchemaFor } from './workspaces.ts';

const role = z.enum(['owner', 'member']);
const memberSchema = z.object({
  user_id: z.uuid(),
  email: z.string(),
  full_name: z.string().nullable(),
  role,
  created_at: z.string(),
});
const invitationSchema = z.object({
  id: z.uuid(),
  workspace_id: z.uuid(),
  email: z.string(),
  role,
  status: z.enum(['pending', 'accepted', 'revoked', 'expired']),
  invited_by: z.uuid().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  accepted_at: z.string().nullable(),
});
const createdInvitation = invitationSchema.extend({
  token: z
    .string()
    .describe('Shown once. Also mailed to the address; the invitee sends it to POST /invitations/accept'),
  message: z.string(),
});
const inviteBody = z.object({ email: z.email().max(320), role: role.default('member') });
const INVITE_DESCRIPTION =
  'The answer is the same whether or not the address has an account. The token is mailed to the address (SMTP, or the outbox without it) ' +
  'and shown here once, so it can be passed on another way. A pending invitation to the same address is replaced. Pending invitations count towards the member limit.';

export async function workspaceMemberRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = { access: { kind: 'user' as const } };

  r.get(
    '/workspaces/:workspace_id/members',
    {
      config: access,
      schema: {
        tags: ['workspaces'],
        operationId: 'listMembers',
        summary: 'List members',
        responseDescription: 'The members of the workspace and their roles.',
        security: userSecurity,
        params: workspaceIdParams,
        response: { 200: z.array(memberSchema), ...errorResponses(401, 403) },
      },
    },
    async (req) => {
      const m = await workspaceMember(ctx, userOf(req).user.id, req.params.workspace_id, false);
      return (await ctx.workspaces.members(m.ws.id)).map((x) => ({
        user_id: x.userId,
        email: x.email,
        full_name: x.fullName,
        role: x.role,
        created_at: x.createdAt.toISOString(),
      }));
    },
  );

  // The members route predates invitations; it is kept as an alias so older clients invite instead of adding.
  const inviteRoutes = [
    {
      url: '/workspaces/:workspace_id/invitations',
      operationId: 'createInvitation',
      summary: 'Invite someone to the workspace (owners only)',
      description: INVITE_DESCRIPTION,
    },
    {
      url: '/workspaces/:workspace_id/members',
      operationId: 'inviteMember',
      summary: 'Invite someone (owners only): the same as POST /workspaces/{workspace_id}/invitations',
      description: `Kept for existing clients; nobody becomes a member before accepting. ${INVITE_DESCRIPTION}`,
    },
  ];
  for (const route of inviteRoutes) {
    r.post(
      route.url,
      {
        config: access,
        schema: {
          tags: ['workspaces'],
          operationId: route.operationId,
          summary: route.summary,
          responseDescription: 'The invitation, with its token (shown this once).',
          description: route.description,
          security: userSecurity,
          params: workspaceIdParams,
          body: inviteBody,
          response: { 201: createdInvitation, ...errorResponses(401, 403, 409, 422) },
        },
      },
      async (req, reply) => {
        const { user } = userOf(req);
        const m = await workspaceMember(ctx, user.id, req.params.workspace_id, true);
        const { row, token } = await ctx.invitations.create(m.ws, user, req.body.email, req.body.role);
        reply.code(201);
        return {
          ...ctx.invitations.toWire(row),
          token,
          message: ctx.mailer.configured
            ? `Invitation sent to ${row.email}. It takes effect when they accept it.`
            : `Invitation created for ${row.email}, not mailed: pass the token on yourself. ${MAIL_NOT_CONFIGURED} It takes effect when they accept it.`,
        };
      },
    );
  }

  r.patch(
    '/workspaces/:workspace_id/members/:user_id',
    {
      config: access,
      schema: {
        tags: ['workspaces'],
        operationId: 'updateMemberRole',
        summary: "Change a member's role (owners only; the last owner cannot step down)",
        responseDescription: "The member's new role.",
        security: userSecurity,
        params: workspaceIdParams.extend({ user_id: z.uuid() }),
        body: z.object({ role }),
        response: {
          200: z.object({ success: z.boolean(), user_id: z.uuid(), role }),
          ...errorResponses(401, 403, 404, 409, 422),
        },
      },
    },
    async (req) => {
      const m = await workspaceMember(ctx, userOf(req).user.id, req.params.workspace_id, true);
      await ctx.workspaces.setRole(m.ws.id, req.params.user_id, req.body.role);
      ctx.auth.invalidate();
      return { success: true, user_id: req.params.user_id, role: req.body.role };
    },
  );

  r.delete(
    '/workspaces/:workspace_id/members/:user_id',
    {
      config: access,
      schema: {
        tags: ['workspaces'],
        operationId: 'removeMember',
        summary: 'Remove a member (owners only; members may remove themselves)',
        responseDescription: 'The member is removed.',
        security: userSecurity,
        params: workspaceIdParams.extend({ user_id: z.uuid() }),
        response: {
          200: z.object({ success: z.boolean(), message: z.string() }),
          ...errorResponses(401, 403, 404, 409),
        },
      },
    },
    async (req) => {
      const me = userOf(req).user.id;
      const m = await workspaceMember(ctx, me, req.params.workspace_id, req.params.user_id !== me);
      await ctx.workspaces.removeMember(m.ws.id, req.params.user_id);
      ctx.auth.invalidate();
      return { success: true, message: 'Member removed' };
    },
  );

  r.get(
    '/workspaces/:workspace_id/invitations',
    {
      config: access,
      schema: {
        tags: ['workspaces'],
        operationId: 'listInvitations',
        summary: 'List invitations, newest first (owners only; tokens are never shown again)',
        responseDescription: 'The invitations of the workspace, newest first.',
        security: userSecurity,
        params: workspaceIdParams,
        response: { 200: z.array(invitationSchema), ...errorResponses(401, 403) },
      },
    },
    async (req) => {
      const m = await workspaceMember(ctx, userOf(req).user.id, req.params.workspace_id, true);
      return (await ctx.invitations.list(m.ws.id)).map((row) => ctx.invitations.toWire(row));
    },
  );

  r.delete(
    '/workspaces/:workspace_id/invitations/:invitation_id',
    {
      config: access,
      schema: {
        tags: ['workspaces'],
        operationId: 'revokeInvitation',
        summary: 'Revoke a pending invitation (owners only); its token stops working at once',
        responseDescription: 'The invitation as revoked.',
        security: userSecurity,
        params: workspaceIdParams.extend({ invitation_id: z.uuid() }),
        response: { 200: invitationSchema, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (req) => {
      const m = await workspaceMember(ctx, userOf(req).user.id, req.params.workspace_id, true);
      return ctx.invitations.toWire(await ctx.invitations.revoke(m.ws.id, req.params.invitation_id));
    },
  );

  r.post(
    '/invitations/accept',
    {
      config: access,
      schema: {
        tags: ['workspaces'],
        operationId: 'acceptInvitation',
        summary: 'Accept an invitation, signed in with the invited address',
        responseDescription: 'Joined: the workspace.',
        description:
          'Without an account, sign up with the invited address and pass the token as invitation_token to POST /auth/signup instead.',
        security: userSecurity,
        body: z.object({ token: z.string().min(1).max(200) }),
        response: {
          200: z.object({
            success: z.boolean(),
            message: z.string(),
            workspace: workspaceSchemaFor(ctx.platforms.slugs),
          }),
          ...errorResponses(400, 401, 403, 422),
        },
      },
    },
    async (req) => {
      const { user } = userOf(req);
      const { ws, role } = await ctx.invitations.accept(user, req.body.token);
      ctx.auth.invalidate();
      const [wire] = await ctx.workspaces.toWire([{ ...ws, role }]);
      return { success: true, message: `You are now a ${role} of "${ws.name}".`, workspace: wire! };
    },
  );
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../context.ts';
import { keyToWire } from '../../../auth/api-keys.ts';
import { PLATFORMS } from '../../../auth/scopes.ts';
import { AppError } from '../../../errors.ts';
import { userOf } from '../access.ts';
import { userSecurity, workspaceIdParams } from '../schemas.ts';

const workspaceSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  owner_id: z.uuid(),
  plan_id: z.string(),
  time_zone: z.string(),
  role: z.enum(['owner', 'member']).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  ...Object.fromEntries(PLATFORMS.map((p) => [`${p}_connected`, z.boolean()])),
  connected_social_count: z.number().int(),
  member_count: z.number().int(),
});

const apiKeySchema = z.object({
  id: z.uuid(),
  workspace_id: z.uuid(),
  key_prefix: z.string(),
  name: z.string().nullable(),
  scope: z.string(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});

const createKeyBody = z.object({
  name: z.string().trim().max(120).nullable().optional(),
  scope: z.string().max(200).default('linkedin_only'),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
});

export async function workspaceRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** Key management is for members of the workspace (owners for changes), with a user session. */
  async function member(userId: string, workspaceId: string, ownerOnly: boolean, why = 'Only workspace owners can manage API keys.') {
    const m = await ctx.workspaces.membership(workspaceId, userId);
    if (!m) throw new AppError('not_found', 'Workspace not found');
    if (ownerOnly && m.role !== 'owner') throw new AppError('forbidden', why);
    return m;
  }

  r.get(
    '/workspaces',
    {
      config: { access: { kind: 'user' } },
      schema: { tags: ['workspaces'], summary: "The caller's workspaces", security: userSecurity, response: { 200: z.array(workspaceSchema) } },
    },
    async (req) => ctx.workspaces.toWire(await ctx.workspaces.listForUser(userOf(req).user.id)),
  );

  r.post(
    '/workspaces',
    {
      config: { access: { kind: 'user' } },
      schema: {
        tags: ['workspaces'],
        summary: 'Create a workspace',
        security: userSecurity,
        body: z.object({ name: z.string().trim().min(1).max(120) }),
        response: { 201: workspaceSchema },
      },
    },
    async (req, reply) => {
      const ws = await ctx.workspaces.create(userOf(req).user.id, req.body.name);
      reply.code(201);
      const [wire] = await ctx.workspaces.toWire([{ ...ws, role: 'owner' }]);
      return wire!;
    },
  );

  r.post(
    '/workspaces/:workspace_id/api-keys',
    {
      config: { access: { kind: 'user' } },
      schema: {
        tags: ['api keys'],
        summary: 'Create an API key (the secret is shown once)',
        security: userSecurity,
        params: workspaceIdParams,
        body: createKeyBody,
        response: { 201: apiKeySchema.extend({ secret: z.string(), workspace_name: z.string(), created_by: z.uuid().nullable() }) },
      },
    },
    async (req, reply) => {
      const { user } = userOf(req);
      const m = await member(user.id, req.params.workspace_id, true);
      ctx.plans.assertFeature(m.ws.planId, 'api_keys_enabled');
      const { row, secret } = await ctx.apiKeys.create({
        workspaceId: m.ws.id,
        name: req.body.name ?? null,
        scope: req.body.scope,
        createdBy: user.id,
        expiresAt: req.body.expires_at ? new Date(req.body.expires_at) : null,
      });
      reply.code(201);
      return { ...keyToWire(row), secret, workspace_name: m.ws.name, created_by: row.createdBy };
    },
  );

  r.get(
    '/workspaces/:workspace_id/api-keys',
    {
      config: { access: { kind: 'user' } },
      schema: { tags: ['api keys'], summary: 'List API keys (no secrets)', security: userSecurity, params: workspaceIdParams, response: { 200: z.array(apiKeySchema) } },
    },
    async (req) => {
      const m = await member(userOf(req).user.id, req.params.workspace_id, false);
      return (await ctx.apiKeys.list(m.ws.id)).map(keyToWire);
    },
  );

  r.delete(
    '/workspaces/:workspace_id/api-keys/:key_id',
    {
      config: { access: { kind: 'user' } },
      schema: {
        tags: ['api keys'],
        summary: 'Revoke an API key',
        security: userSecurity,
        params: workspaceIdParams.extend({ key_id: z.uuid() }),
        response: { 200: z.object({ success: z.boolean(), message: z.string() }) },
      },
    },
    async (req) => {
      const m = await member(userOf(req).user.id, req.params.workspace_id, true);
      await ctx.apiKeys.revoke(m.ws.id, req.params.key_id);
      return { success: true, message: 'API key revoked' };
    },
  );

  const memberSchema = z.object({ user_id: z.uuid(), email: z.string(), full_name: z.string().nullable(), role: z.enum(['owner', 'member']), created_at: z.string() });

  r.get(
    '/workspaces/:workspace_id/members',
    {
      config: { access: { kind: 'user' } },
      schema: { tags: ['workspaces'], summary: 'List members', security: userSecurity, params: workspaceIdParams, response: { 200: z.array(memberSchema) } },
    },
    async (req) => {
      const m = await member(userOf(req).user.id, req.params.workspace_id, false);
      return (await ctx.workspaces.members(m.ws.id)).map((x) => ({ user_id: x.userId, email: x.email, full_name: x.fullName, role: x.role, created_at: x.createdAt.toISOString() }));
    },
  );

  r.post(
    '/workspaces/:workspace_id/members',
    {
      config: { access: { kind: 'user' } },
      schema: {
        tags: ['workspaces'],
        summary: 'Add an existing user as a member (owners only), or change their role',
        security: userSecurity,
        params: workspaceIdParams,
        body: z.object({ email: z.email(), role: z.enum(['owner', 'member']).default('member') }),
        response: { 200: z.object({ success: z.boolean(), user_id: z.uuid(), role: z.enum(['owner', 'member']) }) },
      },
    },
    async (req) => {
      const m = await member(userOf(req).user.id, req.params.workspace_id, true, 'Only workspace owners can manage members.');
      const userId = await ctx.workspaces.addMember(m.ws, req.body.email, req.body.role);
      ctx.auth.invalidate();
      return { success: true, user_id: userId, role: req.body.role };
    },
  );

  r.delete(
    '/workspaces/:workspace_id/members/:user_id',
    {
      config: { access: { kind: 'user' } },
      schema: {
        tags: ['workspaces'],
        summary: 'Remove a member (owners only; members may remove themselves)',
        security: userSecurity,
        params: workspaceIdParams.extend({ user_id: z.uuid() }),
        response: { 200: z.object({ success: z.boolean(), message: z.string() }) },
      },
    },
    async (req) => {
      const me = userOf(req).user.id;
      const m = await member(me, req.params.workspace_id, req.params.user_id !== me, 'Only workspace owners can manage members.');
      await ctx.workspaces.removeMember(m.ws.id, req.params.user_id);
      ctx.auth.invalidate();
      return { success: true, message: 'Member removed' };
    },
  );
}

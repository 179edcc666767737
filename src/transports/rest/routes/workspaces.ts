import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import { keyToWire } from '../../../auth/api-keys.ts';
import { parseLocale, parseTimeZone } from '../../../auth/locale.ts';
import { validationError, type FieldError } from '../../../errors.ts';
import { userOf } from '../access.ts';
import { errorResponses, userSecurity, workspaceIdParams } from '../schemas.ts';
import { workspaceMember } from './workspace-member.ts';

const workspaceSchemas = new Map<readonly string[], z.ZodObject>();

/** A workspace on the wire, with a `<slug>_connected` flag for each of the registry's networks. */
export function workspaceSchemaFor(slugs: readonly string[]): z.ZodObject {
  const known = workspaceSchemas.get(slugs);
  if (known) return known;
  const schema = z.object({
    ...workspaceHead,
    ...Object.fromEntries(slugs.map((p) => [`${p}_connected`, z.boolean()])),
    ...workspaceTail,
  });
  workspaceSchemas.set(slugs, schema);
  return schema;
}

const workspaceHead = {
  id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  owner_id: z.uuid(),
  plan_id: z.string(),
  time_zone: z.string().describe('IANA time zone; scheduled times are shown in it'),
  locale: z.string().nullable().describe('BCP 47 language tag'),
  tool_posts_need_approval: z
    .boolean()
    .describe(
      'What tools (MCP, ChatGPT Actions, the agent) would publish, reply, disconnect or otherwise write to a network waits, as drafts or actions pending approval, until a member approves it',
    ),
  role: z.enum(['owner', 'member']).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
};
const workspaceTail = { connected_social_count: z.number().int(), member_count: z.number().int() };

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

const settingsBody = z.object({
  name: z.string().trim().min(1).max(120).optional(),
  time_zone: z.string().max(64).optional(),
  locale: z.string().max(64).nullable().optional(),
  tool_posts_need_approval: z.boolean().optional(),
});

/** 422 per field for an unknown zone or a malformed tag, and for a body that changes nothing. */
function parseSettings(body: z.infer<typeof settingsBody>): {
  name?: string;
  timeZone?: string;
  locale?: string | null;
  toolPostsNeedApproval?: boolean;
} {
  const errors: FieldError[] = [];
  const out: { name?: string; timeZone?: string; locale?: string | null; toolPostsNeedApproval?: boolean } = {};
  if (body.name !== undefined) out.name = body.name;
  if (body.tool_posts_need_approval !== undefined) out.toolPostsNeedApproval = body.tool_posts_need_approval;
  if (body.time_zone !== undefined) {
    const tz = parseTimeZone(body.time_zone);
    if (tz) out.timeZone = tz;
    else
      errors.push({
        loc: ['body', 'time_zone'],
        msg: 'Not an IANA time zone name (e.g. Europe/Paris, America/New_York, UTC).',
        type: 'time_zone',
      });
  }
  if (body.locale !== undefined) {
    const tag = body.locale === null ? null : parseLocale(body.locale);
    if (body.locale === null || tag) out.locale = tag;
    else
      errors.push({
        loc: ['body', 'locale'],
        msg: 'Not a BCP 47 language tag (e.g. en, en-GB, pt-BR).',
        type: 'locale',
      });
  }
  if (errors.length) throw validationError(errors);
  if (!Object.keys(out).length)
    throw validationError([
      {
        loc: ['body'],
        msg: 'Nothing to change: give name, time_zone, locale and/or tool_posts_need_approval.',
        type: 'missing',
      },
    ]);
  return out;
}

export async function workspaceRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const workspaceSchema = workspaceSchemaFor(ctx.platforms.slugs);
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** Key management is for members of the workspace (owners for changes), with a user session. */
  const member = (userId: string, workspaceId: string, ownerOnly: boolean) =>
    workspaceMember(ctx, userId, workspaceId, ownerOnly, 'Only workspace owners can manage API keys.');

  r.get(
    '/workspaces',
    {
      config: { access: { kind: 'user' } },
      schema: {
        tags: ['workspaces'],
        operationId: 'listWorkspaces',
        summary: "The caller's workspaces",
        responseDescription: 'The workspaces the user belongs to.',
        description:
          'Workspaces the caller owns come first, then those they joined, each oldest first. Pick one by `name` and send its `id` as X-Workspace-Id.',
        security: userSecurity,
        response: { 200: z.array(workspaceSchema), ...errorResponses(401, 403) },
      },
    },
    async (req) => ctx.workspaces.toWire(await ctx.workspaces.listForUser(userOf(req).user.id)),
  );

  r.post(
    '/workspaces',
    {
      config: { access: { kind: 'user' } },
      schema: {
        tags: ['workspaces'],
        operationId: 'createWorkspace',
        summary: 'Create a workspace',
        responseDescription: 'The workspace created.',
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

  r.patch(
    '/workspaces/:workspace_id',
    {
      config: { access: { kind: 'user' } },
      schema: {
        tags: ['workspaces'],
        operationId: 'updateWorkspace',
        summary: 'Change the name, time zone, locale or approval setting (owners only)',
        responseDescription: 'The workspace as changed.',
        description:
          'time_zone is an IANA name (e.g. Europe/Paris); scheduled posts are shown in it. locale is a BCP 47 tag (e.g. en, pt-BR), or null to clear it. ' +
          'tool_posts_need_approval: true holds every post a tool creates (MCP, ChatGPT Actions, the agent) as drafts with status pending_approval, and every other tool call that writes to a network or removes something (a reply to a comment, a disconnect) as a pending action (kind action), until a member approves one with POST /unified/drafts/{id}/approve; it needs the plan feature drafts_enabled.',
        security: userSecurity,
        params: workspaceIdParams,
        body: settingsBody,
        response: { 200: workspaceSchema, ...errorResponses(401, 403, 422) },
      },
    },
    async (req) => {
      const m = await workspaceMember(ctx, userOf(req).user.id, req.params.workspace_id, true);
      const settings = parseSettings(req.body);
      // Held posts are drafts: turning the hold on needs a plan with drafts.
      if (settings.toolPostsNeedApproval) ctx.plans.assertFeature(m.ws.planId, 'drafts_enabled');
      const ws = await ctx.workspaces.update(m.ws.id, settings);
      ctx.auth.invalidate();
      const [wire] = await ctx.workspaces.toWire([{ ...ws, role: m.role }]);
      return wire!;
    },
  );

  r.delete(
    '/workspaces/:workspace_id',
    {
      config: { access: { kind: 'user' } },
      schema: {
        tags: ['workspaces'],
        operationId: 'deleteWorkspace',
        summary: 'Delete the workspace and everything in it (owners only; irreversible)',
        responseDescription: 'The workspace is deleted: what was removed with it.',
        description:
          'Deletes members, invitations, API keys, connections (their tokens are revoked at the networks where possible), posts, drafts, scheduled posts, ' +
          'media records and the stored media files. Members lose access at once. Deleting your last workspace leaves you with none: create one with POST /workspaces.',
        security: userSecurity,
        params: workspaceIdParams,
        response: {
          200: z.object({
            success: z.boolean(),
            message: z.string(),
            deleted_media_files: z.number().int(),
            revoked_connections: z.number().int(),
          }),
          ...errorResponses(401, 403),
        },
      },
    },
    async (req) => {
      const m = await workspaceMember(ctx, userOf(req).user.id, req.params.workspace_id, true);
      const done = await ctx.workspaceDeletion.delete(m.ws.id);
      ctx.auth.invalidate();
      ctx.apiKeys.invalidate();
      ctx.usage.forget(m.ws.id);
      return {
        success: true,
        message: `Workspace "${m.ws.name}" deleted`,
        deleted_media_files: done.files,
        revoked_connections: done.connections,
      };
    },
  );

  r.post(
    '/workspaces/:workspace_id/api-keys',
    {
      config: { access: { kind: 'user' } },
      schema: {
        tags: ['api keys'],
        operationId: 'createApiKey',
        summary: 'Create an API key (the secret is shown once)',
        responseDescription: 'The key created, with its secret (shown this once).',
        security: userSecurity,
        params: workspaceIdParams,
        body: createKeyBody,
        response: {
          201: apiKeySchema.extend({ secret: z.string(), workspace_name: z.string(), created_by: z.uuid().nullable() }),
        },
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
      schema: {
        tags: ['api keys'],
        operationId: 'listApiKeys',
        summary: 'List API keys (no secrets)',
        responseDescription: "The workspace's API keys, without secrets.",
        security: userSecurity,
        params: workspaceIdParams,
        response: { 200: z.array(apiKeySchema) },
      },
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
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key',
        responseDescription: 'The key is revoked.',
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
}

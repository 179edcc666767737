// Administrator actions over HTTP, the same as the CLI's: needed while an embedded server holds the database.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import { publicUser } from '../../../auth/accounts.ts';
import { keyToWire } from '../../../auth/api-keys.ts';
import { notFound } from '../../../errors.ts';
import { outboxToWire } from '../../../mail.ts';
import { signupBody } from './auth.ts';
import { errorResponses, userSchema, userSecurity, workspaceIdParams } from '../schemas.ts';

export async function adminRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = { access: { kind: 'admin' as const } };

  r.get(
    '/admin/mail/outbox',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        operationId: 'adminMailOutbox',
        summary: 'The mails waiting in the outbox (no SMTP configured)',
        description:
          'Without HERALD_SMTP_URL nothing is mailed: invitations, password resets and notifications wait here, oldest ' +
          'first, for the operator to pass on (the same list as `herald mail outbox`).',
        responseDescription: 'The pending mails and whether SMTP is configured.',
        security: userSecurity,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) }),
        response: {
          200: z.object({
            smtp_configured: z.boolean(),
            mails: z.array(
              z.object({
                id: z.uuid(),
                created_at: z.string(),
                kind: z.string(),
                to: z.string(),
                subject: z.string(),
                body: z.string(),
              }),
            ),
          }),
        },
      },
    },
    async (req) => ({
      smtp_configured: ctx.mailer.configured,
      mails: (await ctx.mailer.pending(req.query.limit)).map(outboxToWire),
    }),
  );

  r.post(
    '/admin/users',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        operationId: 'adminCreateUser',
        summary: 'Create a user (works when sign-up is closed)',
        responseDescription: 'The user created.',
        security: userSecurity,
        body: signupBody.extend({ is_admin: z.boolean().default(false) }),
        response: { 201: userSchema, ...errorResponses(409) },
      },
    },
    async (req, reply) => {
      const { is_admin, ...input } = req.body;
      const user = await ctx.accounts.signup(input, { force: true, admin: is_admin });
      reply.code(201);
      return publicUser(user);
    },
  );

  r.post(
    '/admin/workspaces/:workspace_id/api-keys',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        operationId: 'adminCreateApiKey',
        summary: "Create an API key for any workspace (ignores the plan's api_keys_enabled)",
        responseDescription: 'The key created, with its secret (shown this once).',
        security: userSecurity,
        params: workspaceIdParams,
        body: z.object({ name: z.string().max(120).nullable().optional(), scope: z.string().max(200).default('full') }),
        response: { 201: z.object({ id: z.uuid(), secret: z.string(), scope: z.string(), key_prefix: z.string() }) },
      },
    },
    async (req, reply) => {
      const ws = await ctx.workspaces.byId(req.params.workspace_id);
      if (!ws) throw notFound('Workspace not found');
      const { row, secret } = await ctx.apiKeys.create({
        workspaceId: ws.id,
        name: req.body.name ?? null,
        scope: req.body.scope,
        createdBy: null,
      });
      reply.code(201);
      const wire = keyToWire(row);
      return { id: wire.id, secret, scope: wire.scope, key_prefix: wire.key_prefix };
    },
  );

  r.put(
    '/admin/workspaces/:workspace_id/plan',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        operationId: 'adminSetWorkspacePlan',
        summary: "Set a workspace's plan",
        responseDescription: "The workspace's new plan.",
        security: userSecurity,
        params: workspaceIdParams,
        body: z.object({ plan_id: z.string().min(1) }),
        response: { 200: z.object({ workspace_id: z.uuid(), plan_id: z.string() }) },
      },
    },
    async (req) => {
      const ws = await ctx.workspaces.setPlan(req.params.workspace_id, req.body.plan_id);
      return { workspace_id: ws.id, plan_id: ws.planId };
    },
  );
}

// /webhooks: a workspace's webhook endpoints (docs/webhooks.md). Create (the signing secret is in that answer only),
// list, read, change, delete, rotate the secret, send a test event, read the delivery log, redeliver one delivery,
// and recover every delivery that failed since a time. A network-scoped key manages, and its endpoints receive, only
// its networks' events. Deliveries are sent by the worker, never while a request waits.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import { endpointView } from '../../../events/webhooks/index.ts';
import { dateTime } from '../../../publishing/index.ts';
import { principalOf } from '../access.ts';
import { errorResponses, workspaceSecurity } from '../schemas.ts';

const isoTime = z.string().describe('ISO 8601 timestamp');

const endpointSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string(),
  event_types: z.array(z.string()).describe('The event types it receives; empty: every type'),
  enabled: z.boolean(),
  disabled_reason: z
    .string()
    .nullable()
    .describe('Why Herald disabled it (410 Gone, failing for days); null when enabled or disabled by a person'),
  scope: z.string().describe("The networks whose events it receives: 'full', or the creating key's networks"),
  previous_secret_expires_at: isoTime
    .nullable()
    .describe('After a rotation: until when the previous secret still signs beside the new one'),
  created_at: isoTime,
  updated_at: isoTime,
});

const withSecret = endpointSchema.extend({
  secret: z.string().describe('The signing secret (whsec_…). Shown in this answer only: store it now'),
});

const deliverySchema = z.object({
  id: z.string().describe('The webhook-id header: the same on every attempt and redelivery'),
  webhook_id: z.uuid(),
  event_id: z.string().nullable().describe('The event it carries; null for a test delivery'),
  event_type: z.string(),
  status: z.enum(['pending', 'delivering', 'succeeded', 'failed']),
  attempts: z.number().int(),
  next_attempt_at: isoTime.nullable(),
  last_attempt_at: isoTime.nullable(),
  response_status: z.number().int().nullable().describe("The last attempt's HTTP status; null without an answer"),
  response_body: z.string().nullable().describe("The first bytes (1 KiB) of the last attempt's answer"),
  error: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  delivered_at: isoTime.nullable(),
  created_at: isoTime,
  attempt_log: z.array(
    z.object({
      attempt: z.number().int(),
      at: isoTime,
      response_status: z.number().int().nullable(),
      response_body: z.string().nullable(),
      error: z.string().nullable(),
      duration_ms: z.number().int(),
      succeeded: z.boolean(),
    }),
  ),
});

const idParams = z.object({ id: z.uuid() });
const eventTypes = z.array(z.string().max(100)).max(50);
const url = z.string().max(2000).describe('https URL that receives the events (POST, JSON body)');
const description = z.string().max(500);

export async function webhookRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = { kind: 'workspace' as const, feature: 'webhooks_enabled' as const };
  const hooks = ctx.webhooks;
  const view = (row: Parameters<typeof endpointView>[0]) => endpointView(row, ctx.clock());
  const common = { tags: ['webhooks'], security: workspaceSecurity };

  r.post(
    '/webhooks',
    {
      config: { access },
      schema: {
        ...common,
        operationId: 'createWebhook',
        summary: 'Create a webhook endpoint; the answer carries its signing secret, shown this once',
        body: z.object({
          url,
          description: description.optional(),
          event_types: eventTypes.optional().describe('The event types it receives (docs/events.md); omitted: all'),
          enabled: z.boolean().optional(),
        }),
        response: { 201: withSecret.describe('The endpoint, with its signing secret (shown once).') },
      },
    },
    async (req, reply) => {
      const p = principalOf(req);
      const { endpoint, secret } = await hooks.endpoints.create(p.workspaceId, p.scope, p.user?.id ?? null, req.body);
      reply.code(201);
      return { ...view(endpoint), secret };
    },
  );

  r.get(
    '/webhooks',
    {
      config: { access },
      schema: {
        ...common,
        operationId: 'listWebhooks',
        summary: "The workspace's webhook endpoints, newest first",
        responseDescription: 'The endpoints the caller may see (a network-scoped key: those of its networks).',
        response: { 200: z.object({ webhooks: z.array(endpointSchema), event_types: z.array(z.string()) }) },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const rows = await hooks.endpoints.list(p.workspaceId, p.scope);
      return { webhooks: rows.map(view), event_types: [...hooks.endpoints.eventTypes] };
    },
  );

  r.get(
    '/webhooks/:id',
    {
      config: { access },
      schema: {
        ...common,
        operationId: 'getWebhook',
        summary: 'One webhook endpoint',
        responseDescription: 'The endpoint (never its secret).',
        params: idParams,
        response: { 200: endpointSchema },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return view(await hooks.endpoints.get(p.workspaceId, p.scope, req.params.id));
    },
  );

  r.patch(
    '/webhooks/:id',
    {
      config: { access },
      schema: {
        ...common,
        operationId: 'updateWebhook',
        summary: 'Change an endpoint: URL, description, event types, enabled (enabling ends a failure streak)',
        responseDescription: 'The endpoint as changed.',
        params: idParams,
        body: z.object({
          url: url.optional(),
          description: description.optional(),
          event_types: eventTypes.optional(),
          enabled: z.boolean().optional(),
        }),
        response: { 200: endpointSchema },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return view(await hooks.endpoints.update(p.workspaceId, p.scope, req.params.id, req.body));
    },
  );

  r.delete(
    '/webhooks/:id',
    {
      config: { access },
      schema: {
        ...common,
        operationId: 'deleteWebhook',
        summary: 'Delete an endpoint and its delivery log; nothing more is sent to it',
        responseDescription: 'The endpoint is deleted.',
        params: idParams,
        response: { 200: z.object({ success: z.boolean() }) },
      },
    },
    async (req) => {
      const p = principalOf(req);
      await hooks.endpoints.remove(p.workspaceId, p.scope, req.params.id);
      return { success: true };
    },
  );

  r.post(
    '/webhooks/:id/rotate-secret',
    {
      config: { access },
      schema: {
        ...common,
        operationId: 'rotateWebhookSecret',
        summary: 'A new signing secret; the previous one keeps signing beside it for 24 hours',
        responseDescription: 'The endpoint with its new secret (shown once) and when the previous one stops signing.',
        params: idParams,
        response: { 200: withSecret, ...errorResponses(409) },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const { endpoint, secret } = await hooks.endpoints.rotate(p.workspaceId, p.scope, req.params.id);
      return { ...view(endpoint), secret };
    },
  );

  r.post(
    '/webhooks/:id/test',
    {
      config: { access },
      schema: {
        ...common,
        operationId: 'testWebhook',
        summary: 'Queue a webhook.test event to this endpoint alone',
        params: idParams,
        response: { 202: deliverySchema.describe('The queued delivery; the worker sends it.'), ...errorResponses(409) },
      },
    },
    async (req, reply) => {
      const p = principalOf(req);
      const d = await hooks.test(p.workspaceId, p.scope, req.params.id);
      reply.code(202);
      return d;
    },
  );

  r.get(
    '/webhooks/:id/deliveries',
    {
      config: { access },
      schema: {
        ...common,
        operationId: 'listWebhookDeliveries',
        summary: "An endpoint's delivery log, newest first: status, attempts, response code and first bytes, duration",
        responseDescription: 'A page of deliveries and the cursor of the next (null at the end).',
        params: idParams,
        querystring: z.object({
          status: z.enum(['pending', 'delivering', 'succeeded', 'failed']).optional(),
          limit: z.coerce.number().int().min(1).max(100).default(20),
          cursor: z.string().max(200).optional().describe('next_cursor of the previous page'),
        }),
        response: { 200: z.object({ deliveries: z.array(deliverySchema), next_cursor: z.string().nullable() }) },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return hooks.deliveries(p.workspaceId, p.scope, req.params.id, req.query);
    },
  );

  r.post(
    '/webhooks/deliveries/:id/redeliver',
    {
      config: { access },
      schema: {
        ...common,
        operationId: 'redeliverWebhook',
        summary: 'Send a delivery again now, under the same webhook-id',
        params: z.object({ id: z.string().min(1).max(100) }),
        response: { 202: deliverySchema.describe('The delivery, queued again.'), ...errorResponses(409) },
      },
    },
    async (req, reply) => {
      const p = principalOf(req);
      const d = await hooks.redeliver(p.workspaceId, p.scope, req.params.id);
      reply.code(202);
      return d;
    },
  );

  r.post(
    '/webhooks/:id/recover',
    {
      config: { access },
      schema: {
        ...common,
        operationId: 'recoverWebhook',
        summary: 'Resend every delivery of this endpoint that failed since a time',
        params: idParams,
        body: z.object({ since: dateTime.describe('Deliveries created at or after this ISO 8601 date-time') }),
        response: {
          202: z.object({ recovered: z.number().int() }).describe('How many failed deliveries are queued again.'),
          ...errorResponses(409),
        },
      },
    },
    async (req, reply) => {
      const p = principalOf(req);
      const recovered = await hooks.recover(p.workspaceId, p.scope, req.params.id, new Date(req.body.since));
      reply.code(202);
      return { recovered };
    },
  );
}

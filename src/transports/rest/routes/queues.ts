// /unified/queues and /unified/queue/{queue}: posting queues (docs/workflow.md, "Queues"). Queue CRUD with weekly
// slots, a time zone and pause; a post into the next free slot (or share next); a preview of the next free slots.
// A queued post is an ordinary scheduled post: it is read, changed and cancelled through /unified/scheduled-posts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import { validationField } from '../../../errors.ts';
import { anyPostBody, parsePostBody, scheduledRefSchema } from '../../../publishing/index.ts';
import { DEFAULT_QUEUE, scheduledEntrySchema, SLOT_TIME, WEEKDAYS } from '../../../scheduling/index.ts';
import { localIso } from '../../../scheduling/time.ts';
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

const postType = z.enum(['text', 'image', 'carousel', 'video']);
const queueName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'lowercase letters, digits, - and _, 1 to 64 characters')
  .describe(`The queue's name; '${DEFAULT_QUEUE}' always exists`);
const params = z.object({ queue: queueName });
const slotSchema = z.object({
  day: z.enum(WEEKDAYS),
  time: z.string().regex(SLOT_TIME, 'HH:MM, 24-hour clock').describe('Wall-clock time in the queue time zone'),
});
const timeZone = z.string().min(1).max(64).describe('IANA time zone, e.g. Europe/Paris');
const platforms = z.array(z.string().min(1).max(40)).min(1).max(20);

const queueSchema = z.object({
  name: z.string(),
  time_zone: z.string().describe("The zone its slots are in: its own, else the workspace's"),
  time_zone_override: z.string().nullable().describe("Its own zone; null: the workspace's"),
  slots: z.array(slotSchema),
  platforms: z.array(z.string()).nullable().describe('The only networks its posts may go to; null: any'),
  paused: z.boolean(),
  paused_at: z.string().nullable(),
  queued_posts: z.number().int().describe('Posts waiting in it'),
  created_at: z.string().nullable().describe('null for the default queue until it is changed or used'),
  updated_at: z.string().nullable(),
});
const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.boolean(), message: z.string(), data, error: z.string().nullable() });
const oneQueue = envelope(z.object({ queue: queueSchema }));
const settings = {
  time_zone: timeZone.nullable().optional().describe("IANA time zone of the slots; null: the workspace's"),
  slots: z.array(slotSchema).max(500).optional(),
  platforms: platforms.nullable().optional().describe('Only these networks; null: any'),
  paused: z.boolean().optional().describe('A paused queue holds its posts: they are not published until it resumes'),
};

/** The queue picks the time: a scheduled_time in the body is a 422 at its field, not silently dropped. */
const noTime = async (req: FastifyRequest) => {
  const body = req.body as Record<string, unknown> | undefined;
  if (body && typeof body === 'object' && body.scheduled_time !== undefined)
    throw validationField(['body', 'scheduled_time'], 'The queue picks the time: send no scheduled_time.');
};

export async function queueRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = { kind: 'workspace' as const, feature: 'scheduling_enabled' as const };
  const common = { tags: ['scheduling'], security: workspaceSecurity };
  const queues = ctx.queues;
  const addBody = anyPostBody(ctx.platforms.networks)
    .omit({ scheduled_time: true })
    .extend({
      post_type: postType,
      share_next: z
        .boolean()
        .optional()
        .describe('Take the first slot; the posts of the slots that follow move down one slot, up to a free one'),
    });
  r.get(
    '/unified/queues',
    {
      config: { access },
      schema: {
        ...common,
        operationId: 'listQueues',
        summary: "The workspace's posting queues",
        responseDescription: 'Every queue, the default one first.',
        response: { 200: envelope(z.object({ queues: z.array(queueSchema) })) },
      },
    },
    async (req) => {
      const list = await queues.list(principalOf(req));
      return { success: true, message: `Retrieved ${list.length} queues`, data: { queues: list }, error: null };
    },
  );

  r.post(
    '/unified/queues',
    {
      config: { access },
      schema: {
        ...common,
        operationId: 'createQueue',
        summary: 'Create a posting queue',
        description: 'Without slots, it starts with the default queue slots (weekdays at 09:00, 12:00 and 17:00).',
        body: z.object({ name: queueName, ...settings }),
        response: { 201: oneQueue.describe('The queue, created.'), ...errorResponses(409) },
      },
    },
    async (req, reply) => {
      const queue = await queues.create(principalOf(req), req.body.name, req.body);
      reply.code(201);
      return { success: true, message: 'Queue created', data: { queue }, error: null };
    },
  );

  r.get(
    '/unified/queues/:queue',
    {
      config: { access },
      schema: {
        ...common,
        operationId: 'getQueue',
        summary: 'One posting queue',
        responseDescription: 'The queue with its slots.',
        params,
        response: { 200: oneQueue, ...errorResponses(404) },
      },
    },
    async (req) => {
      const queue = await queues.get(principalOf(req), req.params.queue);
      return { success: true, message: 'Queue', data: { queue }, error: null };
    },
  );

  r.patch(
    '/unified/queues/:queue',
    {
      config: { access },
      schema: {
        ...common,
        operationId: 'updateQueue',
        summary: "Change a queue's slots, time zone, networks, or pause and resume it",
        description:
          'Resuming: posts whose slot passed while the queue was paused move, in their order, to the next free slots.',
        responseDescription: 'The queue as changed.',
        params,
        body: z.object(settings),
        response: { 200: oneQueue, ...errorResponses(404) },
      },
    },
    async (req) => {
      const queue = await queues.update(principalOf(req), req.params.queue, req.body);
      return { success: true, message: 'Queue updated', data: { queue }, error: null };
    },
  );

  r.delete(
    '/unified/queues/:queue',
    {
      config: { access },
      schema: {
        ...common,
        operationId: 'deleteQueue',
        summary: 'Delete a posting queue',
        description: 'Its posts stay scheduled at their times, as ordinary scheduled posts. The default queue: 409.',
        responseDescription: 'The queue is deleted.',
        params,
        response: { 200: envelope(z.null()), ...errorResponses(404, 409) },
      },
    },
    async (req) => {
      await queues.remove(principalOf(req), req.params.queue);
      return { success: true, message: 'Queue deleted', data: null, error: null };
    },
  );

  r.post(
    '/unified/queue/:queue/posts',
    {
      config: { access: { ...access, platforms: bodyPlatforms(ctx.platforms) } },
      bodyLimit: POST_BODY_LIMIT,
      preValidation: [nullMeansUnset, requirePostType, noTime],
      schema: {
        ...common,
        operationId: 'addPostToQueue',
        summary: "Put a post in the queue's next free slot",
        description: `The body of POST /unified/scheduled-posts without scheduled_time (the queue picks it). ${NULL_NOTE}`,
        responseDescription: 'Queued: one queue entry per network, all at the slot taken.',
        headers: idempotencyHeaders,
        params,
        body: addBody,
        response: {
          200: envelope(z.object({ scheduled_posts: z.array(scheduledEntrySchema), total: z.number().int() })).extend({
            scheduled: z.array(scheduledRefSchema),
            queue: z.object({
              name: z.string(),
              slot_time: z.string().describe('The slot taken (UTC)'),
              slot_time_local: z.string().describe('The slot in the queue time zone, with its offset'),
              time_zone: z.string(),
            }),
          }),
          ...errorResponses(402, 404, 409),
        },
      },
    },
    async (req, reply) => {
      const { post_type, share_next, ...body } = req.body as {
        post_type: z.infer<typeof postType>;
        share_next?: boolean;
      } & Record<string, unknown>;
      const result = await queues.add(
        principalOf(req),
        req.params.queue,
        post_type,
        parsePostBody(ctx.platforms.networks, post_type, body),
        { shareNext: share_next, idempotencyKey: req.headers['idempotency-key'] },
      );
      return reply.code(result.status as 200).send(result.body as never);
    },
  );

  r.get(
    '/unified/queue/:queue/next-slots',
    {
      config: { access },
      schema: {
        ...common,
        operationId: 'previewQueueSlots',
        summary: 'The next free slots of a queue',
        responseDescription: 'The free slots a post would take, in order (nothing is taken).',
        params,
        querystring: z.object({ count: z.coerce.number().int().min(1).max(100).default(10) }),
        response: {
          200: envelope(
            z.object({
              queue: queueSchema,
              slots: z.array(z.object({ slot_time: z.string(), slot_time_local: z.string() })),
            }),
          ),
          ...errorResponses(404),
        },
      },
    },
    async (req) => {
      const { queue, slots } = await queues.nextSlots(principalOf(req), req.params.queue, req.query.count);
      return {
        success: true,
        message: `${slots.length} free slots`,
        data: {
          queue,
          slots: slots.map((at) => ({ slot_time: at.toISOString(), slot_time_local: localIso(at, queue.time_zone) })),
        },
        error: null,
      };
    },
  );
}

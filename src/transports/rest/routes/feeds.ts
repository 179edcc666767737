// /unified/feeds: the RSS, Atom and JSON Feed feeds a workspace follows (docs/workflow.md, Feeds). Create, list,
// read (with the items seen lately), change, pause, delete, and poll one now. New items become drafts or scheduled
// posts through publishing; the background poll runs where the scheduling worker runs, never while a request waits
// (except the poll asked for here).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import type { FeedItemRow, FeedRow } from '../../../feeds/index.ts';
import { principalOf } from '../access.ts';
import { workspaceSecurity } from '../schemas.ts';

const isoTime = z.string().describe('ISO 8601 timestamp');

const scheduleSchema = z.object({
  delay_minutes: z
    .number()
    .int()
    .min(0)
    .max(60 * 24 * 30)
    .describe('schedule mode: minutes after `from` (at least one minute from the poll)'),
  from: z
    .enum(['found', 'published'])
    .describe("found: when the poll found the item; published: the item's own date (when it has one)"),
});

export const feedSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  networks: z.array(z.string()),
  mode: z
    .enum(['draft', 'schedule', 'queue'])
    .describe(
      'draft: each item becomes drafts; schedule: a scheduled post; queue: the next free slot of a posting queue (`queue`)',
    ),
  queue: z.string().nullable().describe('queue mode: the posting queue its items join (null: the default queue)'),
  schedule: scheduleSchema,
  template: z.string().describe('The post text: {title}, {link} and {summary} are replaced by the item’s'),
  ai: z.boolean().describe('Copy written per network by the AI generator instead of the template'),
  backfill: z.boolean().describe('The first poll posts the items already in the feed'),
  paused: z.boolean(),
  last_polled_at: isoTime.nullable(),
  last_success_at: isoTime.nullable(),
  last_error: z.string().nullable().describe('Why the last failed poll failed (kept after a later success)'),
  last_error_at: isoTime.nullable(),
  failures: z.number().int().describe('Failed polls in a row (0 after a success)'),
  created_at: isoTime,
  updated_at: isoTime,
});

const itemSchema = z.object({
  key: z.string().describe("The item's guid or id, else its link"),
  title: z.string().nullable(),
  link: z.string().nullable(),
  published_at: isoTime.nullable(),
  outcome: z
    .enum(['posted', 'skipped', 'failed'])
    .describe('posted: drafts or a scheduled post were made; skipped: seen on the first poll without backfill'),
  detail: z.string().nullable().describe('Why its post was refused'),
  refs: z
    .array(
      z.object({
        platform: z.string(),
        draft_id: z.string().optional().describe('A draft made of it'),
        status: z.string().optional().describe("The draft's status"),
        scheduled_post_id: z.string().optional().describe('A queue entry made of it'),
        scheduled_time: z.string().optional(),
      }),
    )
    .describe('The drafts and scheduled posts made of it'),
  seen_at: isoTime,
});

const iso = (d: Date | null) => d?.toISOString() ?? null;

function view(f: FeedRow): z.infer<typeof feedSchema> {
  return {
    id: f.id,
    url: f.url,
    networks: f.networks,
    mode: f.mode as 'draft',
    queue: f.queue,
    schedule: { delay_minutes: f.delayMinutes, from: f.delayFrom as 'found' },
    template: f.template,
    ai: f.ai,
    backfill: f.backfill,
    paused: f.paused,
    last_polled_at: iso(f.lastPolledAt),
    last_success_at: iso(f.lastSuccessAt),
    last_error: f.lastError,
    last_error_at: iso(f.lastErrorAt),
    failures: f.failures,
    created_at: f.createdAt.toISOString(),
    updated_at: f.updatedAt.toISOString(),
  };
}

const itemView = (i: FeedItemRow): z.infer<typeof itemSchema> => ({
  key: i.itemKey,
  title: i.title,
  link: i.link,
  published_at: iso(i.publishedAt),
  outcome: i.outcome as 'posted',
  detail: i.detail,
  refs: i.refs as z.infer<typeof itemSchema>['refs'],
  seen_at: i.seenAt.toISOString(),
});

const idParams = z.object({ id: z.uuid() });
const fields = {
  url: z.string().min(1).max(2000).describe('The feed: https (RSS, Atom or JSON Feed)'),
  networks: z.array(z.string().max(200)).min(1).max(20).describe('The networks its items are posted to'),
  mode: z.enum(['draft', 'schedule', 'queue']),
  queue: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'a queue name: lowercase letters, digits, - and _, 1 to 64 characters')
    .nullable()
    .describe('queue mode: the posting queue its items join (null or absent: the default queue)'),
  schedule: scheduleSchema.partial(),
  template: z.string().min(1).max(3000),
  ai: z.boolean(),
  backfill: z.boolean(),
  paused: z.boolean(),
};

/** The known networks a body names, for the key-scope check (unknown ones are the service's 422). */
const networksOf =
  (registry: { has(slug: string): boolean }) =>
  (req: FastifyRequest): string[] => {
    const n = (req.body as { networks?: unknown } | undefined)?.networks;
    if (!Array.isArray(n)) return [];
    return n
      .filter((x): x is string => typeof x === 'string')
      .map((x) => x.trim().toLowerCase())
      .filter((x) => registry.has(x));
  };

export async function feedRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = { kind: 'workspace' as const, feature: 'scheduling_enabled' as const };
  const writing = { ...access, platforms: networksOf(ctx.platforms) };
  const common = { tags: ['feeds'], security: workspaceSecurity };
  const feeds = ctx.feeds;

  r.post(
    '/unified/feeds',
    {
      config: { access: writing },
      schema: {
        ...common,
        operationId: 'createFeed',
        summary: 'Follow a feed: its new items become drafts or scheduled posts',
        body: z.object({
          url: fields.url,
          networks: fields.networks,
          mode: fields.mode.optional().describe('draft (default), schedule, or queue'),
          queue: fields.queue.optional(),
          schedule: fields.schedule.optional(),
          template: fields.template.optional().describe('Default: "{title}\\n\\n{link}"'),
          ai: fields.ai.optional(),
          backfill: fields.backfill.optional(),
          paused: fields.paused.optional(),
        }),
        response: { 201: feedSchema.describe('The feed; its first poll comes with the next round.') },
      },
    },
    async (req, reply) => {
      const made = await feeds.create(principalOf(req), req.body);
      reply.code(201);
      return view(made);
    },
  );

  r.get(
    '/unified/feeds',
    {
      config: { access },
      schema: {
        ...common,
        operationId: 'listFeeds',
        summary: "The workspace's feeds, newest first",
        responseDescription: 'The feeds the caller may see (a network-scoped key: those posting to its networks).',
        response: { 200: z.object({ feeds: z.array(feedSchema) }) },
      },
    },
    async (req) => ({ feeds: (await feeds.list(principalOf(req))).map(view) }),
  );

  r.get(
    '/unified/feeds/:id',
    {
      config: { access },
      schema: {
        ...common,
        operationId: 'getFeed',
        summary: 'One feed, its last success and error, and the items seen lately',
        responseDescription: 'The feed and its 50 latest items.',
        params: idParams,
        response: { 200: feedSchema.extend({ items: z.array(itemSchema) }) },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const feed = await feeds.get(p, req.params.id);
      const items = await feeds.store.items(p.workspaceId, feed.id, 50);
      return { ...view(feed), items: items.map(itemView) };
    },
  );

  r.patch(
    '/unified/feeds/:id',
    {
      config: { access: writing },
      schema: {
        ...common,
        operationId: 'updateFeed',
        summary: 'Change a feed, or pause and resume it',
        responseDescription: 'The feed as changed.',
        params: idParams,
        body: z.object({
          url: fields.url.optional(),
          networks: fields.networks.optional(),
          mode: fields.mode.optional(),
          queue: fields.queue.optional(),
          schedule: fields.schedule.optional(),
          template: fields.template.optional(),
          ai: fields.ai.optional(),
          backfill: fields.backfill.optional(),
          paused: fields.paused.optional(),
        }),
        response: { 200: feedSchema },
      },
    },
    async (req) => view(await feeds.update(principalOf(req), req.params.id, req.body)),
  );

  r.delete(
    '/unified/feeds/:id',
    {
      config: { access },
      schema: {
        ...common,
        operationId: 'deleteFeed',
        summary: 'Stop following a feed (the posts already made stay)',
        responseDescription: 'The feed and its items are deleted.',
        params: idParams,
        response: { 200: z.object({ success: z.boolean() }) },
      },
    },
    async (req) => {
      await feeds.remove(principalOf(req), req.params.id);
      return { success: true };
    },
  );

  r.post(
    '/unified/feeds/:id/poll',
    {
      config: { access },
      schema: {
        ...common,
        operationId: 'pollFeed',
        summary: 'Poll a feed now (paused or not), as the background round would',
        responseDescription: "The poll's outcome; a failure is also kept on the feed.",
        params: idParams,
        response: {
          200: z.object({
            status: z.enum(['not_modified', 'ok', 'failed']),
            seen: z.number().int().describe('Items seen for the first time'),
            posted: z.number().int().describe('Items made into drafts or scheduled posts'),
            failed: z.number().int().describe('Items whose post was refused'),
            error: z.string().optional(),
          }),
        },
      },
    },
    async (req) => feeds.pollNow(principalOf(req), req.params.id),
  );
}

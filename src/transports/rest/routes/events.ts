// GET /events: a workspace's events outbox, newest first by default (the web app's notifications read it too).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import { assertPlatformsAllowed } from '../../../auth/scopes.ts';
import { validationField } from '../../../errors.ts';
import { CursorError, EVENT_TYPES, eventSchema, isEventType } from '../../../events/index.ts';
import { onePlatform } from '../../../platforms/arguments.ts';
import { principalOf } from '../access.ts';
import { errorResponses, workspaceSecurity } from '../schemas.ts';

const query = z.object({
  type: z
    .string()
    .optional()
    .describe(
      'Comma-separated event types (`post.failed,account.needs_reconnect`); a `post.*` prefix matches a family',
    ),
  since: z.iso.datetime({ offset: true }).optional().describe('Events that occurred at or after this time'),
  until: z.iso.datetime({ offset: true }).optional().describe('Events that occurred before this time'),
  post_id: z.uuid().optional(),
  platform: z.string().optional().describe('One network'),
  order: z.enum(['desc', 'asc']).default('desc').describe('desc: newest first (default); asc: oldest first'),
  cursor: z.string().max(64).optional().describe("The previous page's `next_cursor`"),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** `post.*,account.connected` → the exact type names, or a 422 naming the unknown ones. */
function parseTypes(raw: string | undefined): string[] | undefined {
  if (!raw) return undefined;
  const out = new Set<string>();
  const unknown: string[] = [];
  for (const part of raw.split(',').map((s) => s.trim())) {
    if (!part) continue;
    const family = part.endsWith('.*') ? EVENT_TYPES.filter((t) => t.startsWith(part.slice(0, -1))) : [];
    if (family.length) for (const t of family) out.add(t);
    else if (isEventType(part)) out.add(part);
    else unknown.push(part);
  }
  if (unknown.length)
    throw validationField(
      ['query', 'type'],
      `Unknown event type(s): ${unknown.join(', ')}. Known: ${EVENT_TYPES.join(', ')}`,
    );
  return [...out];
}

export async function eventRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/events',
    {
      config: { access: { kind: 'workspace' } },
      schema: {
        tags: ['events'],
        operationId: 'listEvents',
        summary: "The workspace's events",
        description:
          'Everything that happened in the workspace (posts published or failed, accounts needing reconnection…), each ' +
          'written in the same transaction as the change it describes. A network-scoped API key sees only its ' +
          "networks' events. Page with `next_cursor` until it is null.",
        responseDescription: 'One page of events and the cursor of the next.',
        security: workspaceSecurity,
        querystring: query,
        response: {
          200: z.object({ events: z.array(eventSchema), next_cursor: z.string().nullable() }),
          ...errorResponses(400),
        },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const q = req.query;
      const platform = q.platform ? onePlatform(ctx.platforms, q.platform) : undefined;
      if (platform) assertPlatformsAllowed(p.scope, [platform]);
      try {
        const page = await ctx.events.list({
          workspaceId: p.workspaceId,
          types: parseTypes(q.type),
          since: q.since ? new Date(q.since) : undefined,
          until: q.until ? new Date(q.until) : undefined,
          postId: q.post_id,
          platform,
          platforms: p.scope.full ? undefined : [...p.scope.platforms],
          order: q.order,
          cursor: q.cursor,
          limit: q.limit,
        });
        return page;
      } catch (err) {
        if (err instanceof CursorError) throw validationField(['query', 'cursor'], err.message);
        throw err;
      }
    },
  );
}

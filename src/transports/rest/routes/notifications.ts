// A member's mail notifications: GET/PUT /notifications/preferences (per event type, over the defaults), and the
// signed unsubscribe link of the digests, which works without signing in.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import { AppError } from '../../../errors.ts';
import { EVENT_TYPES } from '../../../events/index.ts';
import { principalOf } from '../access.ts';
import { errorResponses, workspaceSecurity } from '../schemas.ts';

const prefsSchema = z
  .object(Object.fromEntries(EVENT_TYPES.map((t) => [t, z.boolean()])))
  .describe('Event type → whether it is mailed to this member');
const answer = z.object({ preferences: prefsSchema, digest_minutes: z.number().int() });

export async function notificationRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const member = (req: Parameters<typeof principalOf>[0]) => {
    const p = principalOf(req);
    if (!p.user) throw new AppError('forbidden', "Notification preferences are a member's own: sign in as the member.");
    return { workspaceId: p.workspaceId, userId: p.user.id };
  };

  r.get(
    '/notifications/preferences',
    {
      config: { access: { kind: 'workspace' } },
      schema: {
        tags: ['notifications'],
        operationId: 'getNotificationPreferences',
        summary: 'Which events are mailed to me in this workspace',
        description:
          'Defaults: failures, stuck posts and accounts needing attention on; successes off. Mails are digests, at most one per HERALD_NOTIFY_DIGEST_MINUTES.',
        responseDescription: "The member's preferences.",
        security: workspaceSecurity,
        response: { 200: answer, ...errorResponses(403) },
      },
    },
    async (req) => {
      const m = member(req);
      return {
        preferences: await ctx.notifier.preferences(m.workspaceId, m.userId),
        digest_minutes: ctx.config.scheduling.digestMinutes,
      };
    },
  );

  r.put(
    '/notifications/preferences',
    {
      config: { access: { kind: 'workspace' } },
      schema: {
        tags: ['notifications'],
        operationId: 'updateNotificationPreferences',
        summary: 'Choose which events are mailed to me in this workspace',
        description: 'Only the types sent change; the others keep their value.',
        responseDescription: "The member's preferences after the change.",
        security: workspaceSecurity,
        body: z.object({ preferences: z.record(z.string(), z.boolean()) }),
        response: { 200: answer, ...errorResponses(403) },
      },
    },
    async (req) => {
      const m = member(req);
      return {
        preferences: await ctx.notifier.update(m.workspaceId, m.userId, req.body.preferences),
        digest_minutes: ctx.config.scheduling.digestMinutes,
      };
    },
  );

  r.get(
    '/notifications/unsubscribe',
    {
      config: { access: { kind: 'public' } },
      schema: {
        tags: ['notifications'],
        operationId: 'unsubscribeNotifications',
        summary: 'Follow the unsubscribe link of a notification mail (no sign-in)',
        description: 'The link is signed and can only turn its one event type (or all) off for its one member.',
        responseDescription: 'What was turned off.',
        querystring: z.object({ token: z.string().min(10).max(1000) }),
        response: { 200: z.object({ success: z.boolean(), message: z.string() }), ...errorResponses(400) },
      },
    },
    async (req) => {
      const done = await ctx.notifier.unsubscribe(req.query.token).catch(() => undefined);
      if (!done) throw new AppError('bad_request', 'This unsubscribe link is not valid.');
      return {
        success: true,
        message:
          done.type === 'all'
            ? 'You will get no more notification mails from this workspace.'
            : `You will get no more mails about ${done.type} from this workspace.`,
      };
    },
  );
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import { FEATURES, IMPLEMENTED_FEATURES } from '../../../auth/plans.ts';
import { principalOf } from '../access.ts';
import { workspaceSecurity } from '../schemas.ts';

const limit = z.number().int().nullable().describe('null = unlimited');
const limitsSchema = z.object({
  max_workspaces: limit,
  max_connected_accounts: limit,
  max_team_members_per_workspace: limit,
  posts_per_month: limit,
  ai_credits_per_month: limit,
  scheduled_posts_per_month: limit,
  storage_bytes: limit,
});
const featuresSchema = z.object(Object.fromEntries(FEATURES.map((f) => [f, z.boolean()])));
const implemented = z
  .array(z.enum(FEATURES))
  .describe(
    'The features this server implements; the others in `features` are plan names with nothing behind them here',
  );
const credits = z.object({ posts: limit, ai_credits: limit, scheduled_posts: limit });

export async function billingRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/billing/plans',
    {
      config: { access: { kind: 'public' } },
      schema: {
        tags: ['billing'],
        operationId: 'listPlans',
        summary: 'The plan catalogue',
        responseDescription: 'The plans of this server and their limits.',
        response: {
          200: z.object({
            plans: z.array(
              z.object({
                plan_id: z.string(),
                display_name: z.string(),
                price_monthly_usd: z.number(),
                price_yearly_usd: z.number(),
                yearly_savings_percent: z.number(),
                tagline: z.string(),
                limits: limitsSchema,
                features: featuresSchema,
              }),
            ),
            implemented_features: implemented,
            default_plan: z.string(),
          }),
        },
      },
    },
    async () => ({
      plans: ctx.plans.list().map((p) => ({
        ...p,
        yearly_savings_percent:
          p.price_monthly_usd > 0 ? Math.round((1 - p.price_yearly_usd / (p.price_monthly_usd * 12)) * 100) : 0,
      })),
      implemented_features: [...IMPLEMENTED_FEATURES],
      default_plan: ctx.config.defaultPlan,
    }),
  );

  r.get(
    '/billing/usage',
    {
      config: { access: { kind: 'workspace' } },
      schema: {
        tags: ['billing'],
        operationId: 'getUsage',
        summary: "The workspace's plan, limits and credit usage this period",
        responseDescription: "The workspace's plan, limits and credits used this period.",
        security: workspaceSecurity,
        response: {
          200: z.object({
            plan_id: z.string(),
            billing_status: z.string(),
            limits: limitsSchema,
            features: featuresSchema,
            implemented_features: implemented,
            remaining: credits.extend({ storage_bytes: limit }),
            used_this_period: z.object({ posts: z.number(), ai_credits: z.number(), scheduled_posts: z.number() }),
            usage_counts: z.object({
              connected_accounts: z.number().int(),
              workspaces_owned: z.number().int(),
              storage_bytes: z.number().int().describe('bytes of stored media'),
              storage_reserved_bytes: z
                .number()
                .int()
                .describe('bytes reserved by chunked uploads in progress (their declared file_size)'),
            }),
            period_start: z.string(),
            period_end: z.string(),
          }),
        },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return ctx.usage.report(p.workspaceId, p.planId);
    },
  );
}

// The plan catalogue: defaults from the published plan table, overridable by an operator file.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { AppError } from '../errors.ts';

export const FEATURES = [
  'publish_enabled',
  'ai_composer_enabled',
  'drafts_enabled',
  'scheduling_enabled',
  'extension_enabled',
  'inbox_enabled',
  'analytics_enabled',
  'support_enabled',
  'personas_enabled',
  'whatsapp_agent_enabled',
  'instagram_dm_enabled',
  'facebook_dm_enabled',
  'api_keys_enabled',
  'mcp_enabled',
  'gpt_app_enabled',
  'auto_replier_enabled',
  'lead_detection_enabled',
  'bulk_scheduling_enabled',
  'ai_watcher_enabled',
  'webhooks_enabled',
] as const;
export type Feature = (typeof FEATURES)[number];

/**
 * The features this server has something behind: a route or tool that checks the flag. The others keep their names
 * (the plan table and the interface list them) but switch nothing on here: no WhatsApp agent, DMs, auto-replier,
 * lead detection, browser extension, personas, AI watcher or support desk.
 */
export const IMPLEMENTED_FEATURES = [
  'publish_enabled',
  'ai_composer_enabled',
  'drafts_enabled',
  'scheduling_enabled',
  'inbox_enabled',
  'analytics_enabled',
  'api_keys_enabled',
  'mcp_enabled',
  'gpt_app_enabled',
  'webhooks_enabled',
  'bulk_scheduling_enabled',
] as const satisfies readonly Feature[];

/** null means unlimited. */
export interface PlanLimits {
  max_workspaces: number | null;
  max_connected_accounts: number | null;
  max_team_members_per_workspace: number | null;
  posts_per_month: number | null;
  ai_credits_per_month: number | null;
  scheduled_posts_per_month: number | null;
  /** Bytes of media a workspace may store (uploads in progress count at their declared size). */
  storage_bytes: number | null;
}

export interface Plan {
  plan_id: string;
  display_name: string;
  price_monthly_usd: number;
  price_yearly_usd: number;
  tagline: string;
  limits: PlanLimits;
  features: Record<Feature, boolean>;
}

export const CREDIT_TYPES = ['posts', 'ai_credits', 'scheduled_posts'] as const;
export type CreditType = (typeof CREDIT_TYPES)[number];

export const CREDIT_LIMIT_KEY: Record<CreditType, keyof PlanLimits> = {
  posts: 'posts_per_month',
  ai_credits: 'ai_credits_per_month',
  scheduled_posts: 'scheduled_posts_per_month',
};

const features = (on: readonly Feature[]): Record<Feature, boolean> =>
  Object.fromEntries(FEATURES.map((f) => [f, on.includes(f)])) as Record<Feature, boolean>;

const FREE: Feature[] = ['publish_enabled', 'ai_composer_enabled'];
const STARTER: Feature[] = [
  ...FREE,
  'drafts_enabled',
  'scheduling_enabled',
  'extension_enabled',
  'inbox_enabled',
  'analytics_enabled',
  'support_enabled',
];

export const DEFAULT_PLANS: Plan[] = [
  {
    plan_id: 'free',
    display_name: 'Free',
    price_monthly_usd: 0,
    price_yearly_usd: 0,
    tagline: 'Try Herald on one workspace.',
    limits: {
      max_workspaces: 1,
      max_connected_accounts: 3,
      max_team_members_per_workspace: 3,
      posts_per_month: 5,
      ai_credits_per_month: 100,
      scheduled_posts_per_month: 0,
      storage_bytes: 1_073_741_824,
    },
    features: features(FREE),
  },
  {
    plan_id: 'starter',
    display_name: 'Starter',
    price_monthly_usd: 10,
    price_yearly_usd: 100,
    tagline: 'Drafts, scheduling, inbox and analytics.',
    limits: {
      max_workspaces: 3,
      max_connected_accounts: 12,
      max_team_members_per_workspace: 5,
      posts_per_month: 150,
      ai_credits_per_month: 3000,
      scheduled_posts_per_month: 100,
      storage_bytes: 10_737_418_240,
    },
    features: features(STARTER),
  },
  {
    plan_id: 'pro',
    display_name: 'Pro',
    price_monthly_usd: 29,
    price_yearly_usd: 290,
    tagline: 'Everything, including API keys, MCP and ChatGPT Actions.',
    limits: {
      max_workspaces: 8,
      max_connected_accounts: null,
      max_team_members_per_workspace: null,
      posts_per_month: null,
      ai_credits_per_month: 10000,
      scheduled_posts_per_month: null,
      storage_bytes: 107_374_182_400,
    },
    features: features(FEATURES),
  },
];

const limitValue = z.number().int().min(0).nullable();
const overrideSchema = z.object({
  plans: z.record(
    z.string().min(1),
    z
      .object({
        display_name: z.string(),
        price_monthly_usd: z.number(),
        price_yearly_usd: z.number(),
        tagline: z.string(),
        limits: z
          .object(Object.fromEntries(Object.keys(DEFAULT_PLANS[0]!.limits).map((k) => [k, limitValue])))
          .partial(),
        features: z.partialRecord(z.enum(FEATURES), z.boolean()),
      })
      .partial(),
  ),
});

export class PlanCatalog {
  readonly #plans: Map<string, Plan>;

  constructor(plans: Plan[]) {
    this.#plans = new Map(plans.map((p) => [p.plan_id, p]));
  }

  /** Defaults, with the operator's file (HERALD_PLANS_FILE) merged over them; new plan ids start from Pro. */
  static load(file?: string): PlanCatalog {
    const plans = new Map(DEFAULT_PLANS.map((p) => [p.plan_id, structuredClone(p)]));
    if (file) {
      const parsed = overrideSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (!parsed.success) {
        throw new Error(
          `HERALD_PLANS_FILE ${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        );
      }
      for (const [id, o] of Object.entries(parsed.data.plans)) {
        const base = plans.get(id) ?? { ...structuredClone(DEFAULT_PLANS[2]!), plan_id: id, display_name: id };
        plans.set(id, {
          ...base,
          ...o,
          plan_id: id,
          limits: { ...base.limits, ...o.limits } as PlanLimits,
          features: { ...base.features, ...o.features },
        });
      }
    }
    return new PlanCatalog([...plans.values()]);
  }

  list(): Plan[] {
    return [...this.#plans.values()];
  }

  has(id: string): boolean {
    return this.#plans.has(id);
  }

  get(id: string): Plan {
    const plan = this.#plans.get(id);
    if (!plan) throw new Error(`Unknown plan '${id}'`);
    return plan;
  }

  assertFeature(planId: string, feature: Feature): void {
    const plan = this.get(planId);
    if (!plan.features[feature]) {
      throw new AppError('plan_required', {
        error: 'plan_required',
        feature,
        plan: plan.plan_id,
        message: `Plan upgrade required for: ${feature}`,
      });
    }
  }
}

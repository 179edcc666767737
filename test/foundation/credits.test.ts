import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../src/errors.ts';
import { periodOf } from '../../src/auth/credits.ts';
import { createHarness, asUser, type Harness } from '../helpers/harness.ts';
import { SECURITY_ROUTES } from '../helpers/security-routes.ts';

let h: Harness;
let now = new Date('2026-01-31T23:59:00Z');
beforeAll(async () => {
  h = await createHarness({ clock: () => now });
});
afterAll(async () => h?.close());

describe('credits', () => {
  it('periods are UTC calendar months whatever the process time zone', () => {
    expect(periodOf(new Date('2026-01-31T23:59:59Z')).start.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(periodOf(new Date('2026-02-01T00:00:00Z')).start.toISOString()).toBe('2026-02-01T00:00:00.000Z');
    expect(periodOf(new Date('2026-12-15T00:00:00Z')).end.toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('concurrent spends never overdraw the period limit', async () => {
    const u = await h.signup();
    await h.setPlan(u.workspaceId, 'free'); // 5 posts per month
    const attempts = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        h.ctx.credits.spend({
          workspaceId: u.workspaceId,
          planId: 'free',
          type: 'posts',
          amount: 1,
          reason: 'test',
          reference: `p${i}`,
        }),
      ),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(5);
    const refused = attempts.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
    expect(refused).toHaveLength(15);
    const err = refused[0]!.reason as AppError;
    expect(err.status).toBe(402);
    expect(err.detail).toMatchObject({
      error: 'insufficient_credits',
      credit_type: 'posts',
      required: 1,
      available: 0,
    });
    expect(await h.ctx.credits.used(u.workspaceId, 'posts')).toBe(5);
  });

  it('a spend larger than what is left fails whole and names what is available', async () => {
    const u = await h.signup();
    await h.setPlan(u.workspaceId, 'free'); // 100 AI credits
    await h.ctx.credits.spend({
      workspaceId: u.workspaceId,
      planId: 'free',
      type: 'ai_credits',
      amount: 98,
      reason: 'gen',
    });
    await expect(
      h.ctx.credits.spend({
        workspaceId: u.workspaceId,
        planId: 'free',
        type: 'ai_credits',
        amount: 5,
        reason: 'image',
      }),
    ).rejects.toMatchObject({
      status: 402,
      detail: { credit_type: 'ai_credits', required: 5, available: 2 },
    });
    expect(await h.ctx.credits.used(u.workspaceId, 'ai_credits')).toBe(98);
    await h.ctx.credits.refund({ workspaceId: u.workspaceId, type: 'ai_credits', amount: 10, reason: 'failed' });
    expect(await h.ctx.credits.used(u.workspaceId, 'ai_credits')).toBe(88);
  });

  it('a new period starts with a fresh budget, and usage reports it', async () => {
    const u = await h.signup();
    await h.setPlan(u.workspaceId, 'free');
    for (let i = 0; i < 5; i++)
      await h.ctx.credits.spend({ workspaceId: u.workspaceId, planId: 'free', type: 'posts', amount: 1, reason: 'p' });
    let usage = (await h.req({ method: 'GET', url: '/billing/usage', headers: asUser(u) })).json();
    expect(usage).toMatchObject({
      plan_id: 'free',
      remaining: { posts: 0, ai_credits: 100, scheduled_posts: 0 },
      used_this_period: { posts: 5 },
      period_start: '2026-01-01T00:00:00.000Z',
    });
    const saved = now;
    now = new Date('2026-02-01T00:00:01Z');
    try {
      usage = (await h.req({ method: 'GET', url: '/billing/usage', headers: asUser(u) })).json();
      expect(usage).toMatchObject({
        remaining: { posts: 5 },
        used_this_period: { posts: 0 },
        period_start: '2026-02-01T00:00:00.000Z',
        period_end: '2026-03-01T00:00:00.000Z',
      });
    } finally {
      now = saved;
    }
  });

  it('unlimited plans report null limits and still count use', async () => {
    const u = await h.signup();
    await h.ctx.credits.spend({ workspaceId: u.workspaceId, planId: 'pro', type: 'posts', amount: 3, reason: 'p' });
    const usage = (await h.req({ method: 'GET', url: '/billing/usage', headers: asUser(u) })).json();
    expect(usage).toMatchObject({
      plan_id: 'pro',
      limits: { posts_per_month: null },
      remaining: { posts: null },
      used_this_period: { posts: 3 },
      usage_counts: { workspaces_owned: 1, connected_accounts: 0 },
    });
    expect(usage.features.api_keys_enabled).toBe(true);
  });

  it('says which of the plan features this server implements: every feature a route checks, none of the advertised-only ones', async () => {
    const u = await h.signup();
    const usage = (await h.req({ method: 'GET', url: '/billing/usage', headers: asUser(u) })).json();
    // The contract's flags stay as they are; the list is beside them.
    expect(usage.features.whatsapp_agent_enabled).toBe(true);
    const implemented = new Set(usage.implemented_features as string[]);
    const gatedByRoutes = new Set(
      Object.values(SECURITY_ROUTES).flatMap((e) => ('feature' in e && e.feature ? [e.feature] : [])),
    );
    // API keys and MCP are checked when the key or the MCP session is authenticated, not per route.
    expect([...implemented].sort()).toEqual([...gatedByRoutes, 'api_keys_enabled', 'mcp_enabled'].sort());
    for (const absent of [
      'whatsapp_agent_enabled',
      'auto_replier_enabled',
      'lead_detection_enabled',
      'extension_enabled',
      'instagram_dm_enabled',
      'facebook_dm_enabled',
      'personas_enabled',
      'ai_watcher_enabled',
    ]) {
      expect(implemented.has(absent), absent).toBe(false);
      expect(Object.keys(usage.features)).toContain(absent);
    }
    expect((await h.req({ method: 'GET', url: '/billing/plans' })).json().implemented_features).toEqual(
      usage.implemented_features,
    );
  });
});

describe('plans', () => {
  it('GET /billing/plans is public and carries the catalogue', async () => {
    const res = await h.req({ method: 'GET', url: '/billing/plans' });
    expect(res.statusCode).toBe(200);
    const plans = res.json().plans as {
      plan_id: string;
      limits: Record<string, number | null>;
      features: Record<string, boolean>;
    }[];
    const byId = Object.fromEntries(plans.map((p) => [p.plan_id, p]));
    expect(byId.free!.limits).toMatchObject({
      max_workspaces: 1,
      max_connected_accounts: 3,
      posts_per_month: 5,
      ai_credits_per_month: 100,
      scheduled_posts_per_month: 0,
    });
    expect(byId.starter!.features).toMatchObject({
      drafts_enabled: true,
      scheduling_enabled: true,
      api_keys_enabled: false,
    });
    expect(byId.pro!.features.gpt_app_enabled).toBe(true);
    expect(res.json().default_plan).toBe('pro');
  });
});

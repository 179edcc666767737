// The usage report of GET /billing/usage, composed once per workspace and kept for a second:
// dashboards poll it, and a spend or plan change in this process drops the copy at once.
import { LRUCache } from 'lru-cache';
import type { CreditService } from './credits.ts';
import { IMPLEMENTED_FEATURES, type PlanCatalog } from './plans.ts';
import type { WorkspaceService } from './workspaces.ts';
import type { StorageQuota } from '../media/quota.ts';

export type UsageReport = Awaited<ReturnType<UsageService['compose']>>;

export class UsageService {
  readonly #plans: PlanCatalog;
  readonly #credits: CreditService;
  readonly #workspaces: WorkspaceService;
  readonly #quota: StorageQuota;
  readonly #cache: LRUCache<string, UsageReport>;

  constructor(
    plans: PlanCatalog,
    credits: CreditService,
    workspaces: WorkspaceService,
    quota: StorageQuota,
    now: () => Date,
    cacheMs = 1000,
  ) {
    this.#plans = plans;
    this.#quota = quota;
    this.#credits = credits;
    this.#workspaces = workspaces;
    this.#cache = new LRUCache({
      max: 10_000,
      ttl: Math.max(cacheMs, 1),
      perf: { now: () => now().getTime() },
      ttlResolution: 0,
    });
  }

  #drop(workspaceId: string): void {
    for (const k of this.#cache.keys()) if (k.startsWith(`${workspaceId}:`)) this.#cache.delete(k);
  }

  /** Forget the workspace's cached reports (after its balance, plan or connections changed). */
  forget(workspaceId: string): void {
    this.#drop(workspaceId);
  }

  async report(workspaceId: string, planId: string): Promise<UsageReport> {
    const key = `${workspaceId}:${planId}`;
    const hit = this.#cache.get(key);
    if (hit) return hit;
    const report = await this.compose(workspaceId, planId);
    this.#cache.set(key, report);
    return report;
  }

  async compose(workspaceId: string, planId: string) {
    const plan = this.#plans.get(planId);
    const [usage, connected, owned, storage] = await Promise.all([
      this.#credits.usage(workspaceId, planId),
      this.#workspaces.connectedPlatforms([workspaceId]),
      this.#workspaces.ownedCountOfWorkspaceOwner(workspaceId),
      this.#quota.usage(workspaceId),
    ]);
    const storageTaken = storage.used + storage.reserved;
    return {
      plan_id: plan.plan_id,
      // Self-hosted: there is no payment provider, so a plan is always active.
      billing_status: 'active',
      limits: plan.limits,
      features: plan.features,
      implemented_features: [...IMPLEMENTED_FEATURES],
      remaining: {
        ...usage.remaining,
        storage_bytes: storage.limit === null ? null : Math.max(0, storage.limit - storageTaken),
      },
      used_this_period: usage.used,
      usage_counts: {
        connected_accounts: connected.get(workspaceId)?.size ?? 0,
        workspaces_owned: owned,
        storage_bytes: storage.used,
        storage_reserved_bytes: storage.reserved,
      },
      period_start: usage.period.start.toISOString(),
      period_end: usage.period.end.toISOString(),
    };
  }
}

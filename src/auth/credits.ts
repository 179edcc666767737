// Credits: one balance row per workspace, credit type and monthly period. A spend is a single guarded
// UPDATE (used + n <= limit), so concurrent spends serialise on the row and can never overdraw.
import { and, eq, sql } from '../db/orm.ts';
import type { Db } from '../db/client.ts';
import { creditBalances, creditLedger } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { CREDIT_LIMIT_KEY, CREDIT_TYPES, type CreditType, type PlanCatalog } from './plans.ts';

export interface Period {
  start: Date;
  end: Date;
}

/** Billing periods are calendar months in UTC, independent of the process time zone. */
export function periodOf(at: Date): Period {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { start, end };
}

export interface SpendRequest {
  workspaceId: string;
  planId: string;
  type: CreditType;
  amount: number;
  reason: string;
  reference?: string;
}

export class CreditService {
  readonly #db: Db;
  readonly #plans: PlanCatalog;
  readonly #now: () => Date;
  /** Called after a workspace's balance changed (cached usage reports drop their copy). */
  readonly changed: ((workspaceId: string) => void)[] = [];

  constructor(db: Db, plans: PlanCatalog, now: () => Date) {
    this.#db = db;
    this.#plans = plans;
    this.#now = now;
  }

  limitFor(planId: string, type: CreditType): number | null {
    return this.#plans.get(planId).limits[CREDIT_LIMIT_KEY[type]];
  }

  /** Spends atomically or throws 402 naming the credit type, what was required and what is available. */
  async spend(req: SpendRequest, tx: Db = this.#db): Promise<void> {
    if (!Number.isInteger(req.amount) || req.amount <= 0) throw new Error('spend amount must be a positive integer');
    const { start } = periodOf(this.#now());
    const limit = this.limitFor(req.planId, req.type);
    await tx
      .insert(creditBalances)
      .values({ workspaceId: req.workspaceId, creditType: req.type, periodStart: start, used: 0 })
      .onConflictDoNothing();
    const guard = limit === null ? sql`true` : sql`${creditBalances.used} + ${req.amount} <= ${limit}`;
    const updated = await tx
      .update(creditBalances)
      .set({ used: sql`${creditBalances.used} + ${req.amount}`, updatedAt: this.#now() })
      .where(
        and(
          eq(creditBalances.workspaceId, req.workspaceId),
          eq(creditBalances.creditType, req.type),
          eq(creditBalances.periodStart, start),
          guard,
        ),
      )
      .returning({ used: creditBalances.used });
    if (updated.length === 0) {
      const used = await this.used(req.workspaceId, req.type, tx);
      const available = Math.max(0, (limit ?? 0) - used);
      throw new AppError('insufficient_credits', {
        error: 'insufficient_credits',
        credit_type: req.type,
        required: req.amount,
        available,
        remaining: available,
        message: `Insufficient ${req.type} credits: ${req.amount} required, ${available} available this period.`,
      });
    }
    await tx.insert(creditLedger).values({
      workspaceId: req.workspaceId,
      creditType: req.type,
      periodStart: start,
      amount: req.amount,
      reason: req.reason,
      reference: req.reference ?? null,
    });
    for (const listener of this.changed) listener(req.workspaceId);
  }

  /** Gives back credits spent for work that did not happen (e.g. a publish that failed). */
  async refund(req: Omit<SpendRequest, 'planId'>, tx: Db = this.#db): Promise<void> {
    const { start } = periodOf(this.#now());
    await tx
      .update(creditBalances)
      .set({ used: sql`greatest(${creditBalances.used} - ${req.amount}, 0)`, updatedAt: this.#now() })
      .where(
        and(
          eq(creditBalances.workspaceId, req.workspaceId),
          eq(creditBalances.creditType, req.type),
          eq(creditBalances.periodStart, start),
        ),
      );
    await tx.insert(creditLedger).values({
      workspaceId: req.workspaceId,
      creditType: req.type,
      periodStart: start,
      amount: -req.amount,
      reason: req.reason,
      reference: req.reference ?? null,
    });
    for (const listener of this.changed) listener(req.workspaceId);
  }

  async used(workspaceId: string, type: CreditType, tx: Db = this.#db): Promise<number> {
    const { start } = periodOf(this.#now());
    const rows = await tx
      .select({ used: creditBalances.used })
      .from(creditBalances)
      .where(
        and(
          eq(creditBalances.workspaceId, workspaceId),
          eq(creditBalances.creditType, type),
          eq(creditBalances.periodStart, start),
        ),
      );
    return rows[0]?.used ?? 0;
  }

  async usage(workspaceId: string, planId: string) {
    const period = periodOf(this.#now());
    const rows = await this.#db
      .select({ type: creditBalances.creditType, used: creditBalances.used })
      .from(creditBalances)
      .where(and(eq(creditBalances.workspaceId, workspaceId), eq(creditBalances.periodStart, period.start)));
    const byType = new Map(rows.map((r) => [r.type, r.used]));
    const used = {} as Record<CreditType, number>;
    const remaining = {} as Record<CreditType, number | null>;
    for (const type of CREDIT_TYPES) {
      used[type] = byType.get(type) ?? 0;
      const limit = this.limitFor(planId, type);
      remaining[type] = limit === null ? null : Math.max(0, limit - used[type]);
    }
    return { period, used, remaining };
  }
}

// Credits: the ledger (credit_ledger) records every spend and refund; a limited credit type also keeps a
// running total per workspace, credit type and monthly period (credit_balances). A limited spend is ONE
// guarded upsert of that row (used + n <= limit), so concurrent spends serialise on the row and can never
// overdraw, and the row is locked only until the caller's transaction commits (never across a network
// call). An unlimited type has nothing to guard: its spends and refunds only append to the ledger, so
// publishing on an unlimited plan never waits on the workspace's credit row. The total is resynchronised
// from the ledger when the plan changes (resync), so a plan that becomes limited starts from what was spent.
import { eventRow } from '../events/index.ts';
import { and, eq, type SQL, sql } from '../db/orm.ts';
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
  readonly #changed: (workspaceId: string) => void;

  constructor(db: Db, plans: PlanCatalog, now: () => Date, changed: (workspaceId: string) => void = () => {}) {
    this.#changed = changed;
    this.#db = db;
    this.#plans = plans;
    this.#now = now;
  }

  /**
   * A spend as parts of ONE data-modifying statement (publishing now writes its post, targets and credits so): on a
   * limited type `guard` is a CTE named `bal` (the same guarded upsert as `spend`) that returns a row only when the
   * spend fits, and the caller makes its own writes depend on it (`where exists (select 1 from bal)`); `writes` are
   * the CTEs that append the ledger line (and credits.low when this spend crosses the low mark), one row per row of
   * `source`. When the statement wrote nothing because the guard refused, `refuse()` throws the 402 `spend` throws.
   * `spent()` after a statement that wrote.
   */
  spendParts(
    req: SpendRequest,
    source: SQL,
  ): { guard: SQL | undefined; writes: SQL[]; refuse: () => Promise<never>; spent: () => void } {
    if (!Number.isInteger(req.amount) || req.amount <= 0) throw new Error('spend amount must be a positive integer');
    const now = this.#now();
    const at = now.toISOString();
    const { start } = periodOf(now);
    const period = start.toISOString();
    const limit = this.limitFor(req.planId, req.type);
    const writes = [
      sql`cl as (insert into credit_ledger (workspace_id, credit_type, period_start, amount, reason, reference)
        select ${req.workspaceId}::uuid, ${req.type}, ${period}::timestamptz, ${req.amount}::int, ${req.reason},
          ${req.reference ?? null}::text from ${source})`,
    ];
    let guard: SQL | undefined;
    if (limit !== null) {
      guard =
        req.amount > limit
          ? sql`bal as (select 0::int as used where false)`
          : sql`bal as (insert into credit_balances (workspace_id, credit_type, period_start, used, updated_at)
              values (${req.workspaceId}::uuid, ${req.type}, ${period}::timestamptz, ${req.amount}::int, ${at}::timestamptz)
              on conflict (workspace_id, credit_type, period_start) do update
                set used = credit_balances.used + ${req.amount}::int, updated_at = ${at}::timestamptz
                where credit_balances.used + ${req.amount}::int <= ${limit}::int
              returning used)`;
      // credits.low, as lowAfter decides it: this spend took what remains to the mark or under it.
      const mark = Math.ceil(limit * LOW_CREDITS_SHARE);
      writes.push(sql`low as (insert into events (workspace_id, type, data, occurred_at)
        select ${req.workspaceId}::uuid, 'credits.low', jsonb_build_object('credit_type', ${req.type}::text,
            'used', bal.used, 'limit', ${limit}::int, 'remaining', ${limit}::int - bal.used,
            'period_start', ${period}::text), ${at}::timestamptz
        from bal, (select 1 from ${source} limit 1) s
        where ${limit}::int - bal.used <= ${mark}::int and ${limit}::int - bal.used + ${req.amount}::int > ${mark}::int)`);
    }
    return {
      guard,
      writes,
      refuse: () => this.#refuse(req, limit ?? 0, start, this.#db),
      spent: () => this.#changed(req.workspaceId),
    };
  }

  limitFor(planId: string, type: CreditType): number | null {
    return this.#plans.get(planId).limits[CREDIT_LIMIT_KEY[type]];
  }

  /** Spends atomically or throws 402 naming the credit type, what was required and what is available. */
  async spend(req: SpendRequest, tx: Db = this.#db): Promise<void> {
    if (!Number.isInteger(req.amount) || req.amount <= 0) throw new Error('spend amount must be a positive integer');
    const { start } = periodOf(this.#now());
    const limit = this.limitFor(req.planId, req.type);
    let low: Parameters<typeof eventRow<'credits.low'>>[2] | undefined;
    if (limit !== null) {
      // One statement: create the period's row with this spend, or add to it only while it stays within the limit.
      const updated =
        req.amount > limit
          ? []
          : await tx
              .insert(creditBalances)
              .values({
                workspaceId: req.workspaceId,
                creditType: req.type,
                periodStart: start,
                used: req.amount,
                updatedAt: this.#now(),
              })
              .onConflictDoUpdate({
                target: [creditBalances.workspaceId, creditBalances.creditType, creditBalances.periodStart],
                set: { used: sql`${creditBalances.used} + ${req.amount}`, updatedAt: this.#now() },
                setWhere: sql`${creditBalances.used} + ${req.amount} <= ${limit}`,
              })
              .returning({ used: creditBalances.used });
      if (updated.length > 0) low = lowAfter(req, limit, updated[0]!.used, start);
      if (updated.length === 0) await this.#refuse(req, limit, start, tx);
    }
    const entry = {
      workspaceId: req.workspaceId,
      creditType: req.type,
      periodStart: start,
      amount: req.amount,
      reason: req.reason,
      reference: req.reference ?? null,
    };
    // The spend that brings the balance under the low mark writes credits.low with its ledger line (one statement).
    if (low) {
      const ev = eventRow(req.workspaceId, 'credits.low', low, { at: this.#now() });
      await tx.execute(sql`
        with l as (
          insert into credit_ledger (workspace_id, credit_type, period_start, amount, reason, reference)
          values (${entry.workspaceId}::uuid, ${entry.creditType}, ${start.toISOString()}::timestamptz, ${entry.amount},
            ${entry.reason}, ${entry.reference})
        )
        insert into events (workspace_id, type, data, occurred_at)
        values (${ev.workspaceId}::uuid, ${ev.type}, ${JSON.stringify(ev.data)}::jsonb, ${this.#now().toISOString()}::timestamptz)`);
    } else await tx.insert(creditLedger).values(entry);
    this.#changed(req.workspaceId);
  }

  /** The 402 of a spend the limit refused, naming what was required and what is available. */
  async #refuse(req: SpendRequest, limit: number, start: Date, tx: Db): Promise<never> {
    const [row] = await tx
      .select({ used: creditBalances.used })
      .from(creditBalances)
      .where(
        and(
          eq(creditBalances.workspaceId, req.workspaceId),
          eq(creditBalances.creditType, req.type),
          eq(creditBalances.periodStart, start),
        ),
      );
    const available = Math.max(0, limit - (row?.used ?? 0));
    throw new AppError('insufficient_credits', {
      error: 'insufficient_credits',
      credit_type: req.type,
      required: req.amount,
      available,
      remaining: available,
      message: `Insufficient ${req.type} credits: ${req.amount} required, ${available} available this period.`,
    });
  }

  /**
   * Gives back credits spent for work that did not happen (e.g. a publish that failed). `planId` (the
   * workspace's plan now) tells whether there is a running total to lower; without it the total is
   * lowered when one exists (a limited plan's), which is always right, only not free.
   */
  async refund(req: Omit<SpendRequest, 'planId'> & { planId?: string | undefined }, tx: Db = this.#db): Promise<void> {
    const { start } = periodOf(this.#now());
    if (req.planId === undefined || this.limitFor(req.planId, req.type) !== null) {
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
    }
    await tx.insert(creditLedger).values({
      workspaceId: req.workspaceId,
      creditType: req.type,
      periodStart: start,
      amount: -req.amount,
      reason: req.reason,
      reference: req.reference ?? null,
    });
    this.#changed(req.workspaceId);
  }

  /**
   * After a plan change (in its transaction): the running totals of this period are set to what the
   * ledger holds, since spends on an unlimited type only went to the ledger.
   */
  async resync(workspaceId: string, tx: Db = this.#db): Promise<void> {
    const { start } = periodOf(this.#now());
    await tx.execute(sql`
      insert into ${creditBalances} (workspace_id, credit_type, period_start, used, updated_at)
      select workspace_id, credit_type, period_start, greatest(sum(amount), 0), ${this.#now().toISOString()}::timestamptz
      from ${creditLedger}
      where workspace_id = ${workspaceId} and period_start = ${start.toISOString()}::timestamptz
      group by workspace_id, credit_type, period_start
      on conflict (workspace_id, credit_type, period_start) do update set used = excluded.used, updated_at = excluded.updated_at`);
    this.#changed(workspaceId);
  }

  /** What was spent this period (the ledger's sum: right for limited and unlimited types alike). */
  async used(workspaceId: string, type: CreditType, tx: Db = this.#db): Promise<number> {
    const { start } = periodOf(this.#now());
    const rows = await tx
      .select({ used: sql<string | number | null>`sum(${creditLedger.amount})` })
      .from(creditLedger)
      .where(
        and(
          eq(creditLedger.workspaceId, workspaceId),
          eq(creditLedger.creditType, type),
          eq(creditLedger.periodStart, start),
        ),
      );
    return Math.max(0, Number(rows[0]?.used ?? 0));
  }

  async usage(workspaceId: string, planId: string) {
    const period = periodOf(this.#now());
    // A limited type reports its running total (what the guard counts), an unlimited one the ledger's sum.
    const [balances, spent] = await Promise.all([
      this.#db
        .select({ type: creditBalances.creditType, used: creditBalances.used })
        .from(creditBalances)
        .where(and(eq(creditBalances.workspaceId, workspaceId), eq(creditBalances.periodStart, period.start))),
      this.#db
        .select({ type: creditLedger.creditType, used: sql<string | number | null>`sum(${creditLedger.amount})` })
        .from(creditLedger)
        .where(and(eq(creditLedger.workspaceId, workspaceId), eq(creditLedger.periodStart, period.start)))
        .groupBy(creditLedger.creditType),
    ]);
    const balance = new Map(balances.map((r) => [r.type, r.used]));
    const ledger = new Map(spent.map((r) => [r.type, Math.max(0, Number(r.used ?? 0))]));
    const used = {} as Record<CreditType, number>;
    const remaining = {} as Record<CreditType, number | null>;
    for (const type of CREDIT_TYPES) {
      const limit = this.limitFor(planId, type);
      used[type] = (limit === null ? ledger.get(type) : balance.get(type)) ?? 0;
      remaining[type] = limit === null ? null : Math.max(0, limit - used[type]);
    }
    return { period, used, remaining };
  }
}

/** Share of a period's credits left under which the workspace is told (credits.low, once per crossing). */
export const LOW_CREDITS_SHARE = 0.1;

/** The credits.low payload when this spend (leaving `used`) crossed the low mark, else undefined. */
function lowAfter(req: SpendRequest, limit: number, used: number, start: Date) {
  const mark = Math.ceil(limit * LOW_CREDITS_SHARE);
  const remaining = limit - used;
  if (remaining > mark || remaining + req.amount <= mark) return undefined;
  return { credit_type: req.type, used, limit, remaining, period_start: start.toISOString() };
}

// The storage quota of a workspace (plan limit `storage_bytes`, null = unlimited). Usage is the
// stored media plus the declared size of chunked uploads still open, so an upload reserves its room
// at init and cannot grow past it. Checks that decide (storing a file, opening an upload) run under a
// per-workspace transaction lock, so two uploads at once cannot both take the last bytes.
import { sql } from '../db/orm.ts';
import type { Db } from '../db/client.ts';
import type { PlanCatalog } from '../auth/plans.ts';
import { AppError } from '../errors.ts';
import { formatBytes } from './records.ts';

export interface StorageUsage {
  /** Bytes of stored media. */
  used: number;
  /** Bytes reserved by chunked uploads not yet completed. */
  reserved: number;
  /** null = unlimited. */
  limit: number | null;
}

export class StorageQuota {
  readonly #db: Db;
  readonly #plans: PlanCatalog;
  readonly #now: () => Date;

  constructor(db: Db, plans: PlanCatalog, now: () => Date) {
    this.#db = db;
    this.#plans = plans;
    this.#now = now;
  }

  /** `exceptUpload`: a chunked upload being completed, whose reservation becomes the stored file. */
  async usage(workspaceId: string, opts: { tx?: Db; exceptUpload?: string } = {}): Promise<StorageUsage> {
    const db = opts.tx ?? this.#db;
    const except = opts.exceptUpload ?? null;
    const res = await db.execute(sql`
      select w.plan_id as "planId",
        coalesce((select sum(m.file_size) from media m where m.workspace_id = w.id), 0)::text as used,
        coalesce((select sum(s.file_size) from upload_sessions s
          where s.workspace_id = w.id
            and (s.status = 'assembling' or (s.status = 'open' and s.expires_at > ${this.#now()}))
            and (${except}::uuid is null or s.id <> ${except}::uuid)), 0)::text as reserved
      from workspaces w where w.id = ${workspaceId}`);
    const row = (res as unknown as { rows: { planId: string; used: string; reserved: string }[] }).rows[0];
    if (!row) return { used: 0, reserved: 0, limit: 0 };
    return {
      used: Number(row.used),
      reserved: Number(row.reserved),
      limit: this.#plans.get(row.planId).limits.storage_bytes,
    };
  }

  /** Serialises the quota decisions of one workspace until the transaction ends. */
  async lock(tx: Db, workspaceId: string): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`herald-storage:${workspaceId}`}, 0))`);
  }

  /** 403 storage_limit unless `bytes` more fit (bytes = 0: the workspace is not over its quota). */
  async assertRoom(workspaceId: string, bytes: number, opts: { tx?: Db; exceptUpload?: string } = {}): Promise<void> {
    const u = await this.usage(workspaceId, opts);
    if (u.limit === null) return;
    const taken = u.used + u.reserved;
    if (taken + bytes > u.limit) {
      const free = Math.max(0, u.limit - taken);
      throw new AppError('limit_reached', {
        error: 'storage_limit',
        used: taken,
        limit: u.limit,
        requested: bytes,
        message: `Storage limit reached: this workspace may store ${formatBytes(u.limit)}; ${formatBytes(free)} is free and this needs ${formatBytes(bytes)}. Delete media or raise the plan's storage_bytes.`,
      });
    }
  }
}

// `herald db move --to <url>`: copies the embedded (PGlite) database into an empty PostgreSQL. The target's schema
// is made by Herald's migrations (the source is migrated first, so both are at this build's version); the rows of
// every table are copied in dependency order (parents before children) in one transaction, identity and serial
// sequences are set past the copied values, the job queue's pending jobs (pg-boss, which PGlite mode runs in the
// same database) are copied into queues made with the source's options, and the rows per table are compared.
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Config } from '../../config.ts';
import { openDatabase, type Database } from '../../db/client.ts';
import { DataDirLockedError } from '../../db/lock.ts';
import { UsageError } from '../errors.ts';
import { heraldTables, isEmptyDatabase, qualified, redactedUrl, type Sql, tableCounts } from './database.ts';

export interface MoveResult {
  tables: Record<string, number>;
  /** Pending jobs of the queue copied. */
  jobs: number;
  /** The configuration to run on PostgreSQL from now on, one line each. */
  instructions: string[];
}

interface Column {
  name: string;
  type: string;
}

async function columns(db: Sql, table: string): Promise<Column[]> {
  const { rows } = await db.query<Column>(
    `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type from pg_attribute a
      where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      order by a.attnum`,
    [qualified(table)],
  );
  return rows;
}

/** Herald's tables ordered so that every table comes after those its foreign keys point at. */
export async function dependencyOrder(db: Sql): Promise<string[]> {
  const tables = await heraldTables(db);
  const { rows } = await db.query<{ child: string; parent: string }>(
    `select c.relname as child, p.relname as parent from pg_constraint k
       join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
       join pg_namespace n on n.oid = c.relnamespace
      where k.contype = 'f' and n.nspname = 'public' and k.conrelid <> k.confrelid`,
  );
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const r of rows) parents.get(r.child)?.add(r.parent);
  const order: string[] = [];
  const placed = new Set<string>();
  while (order.length < tables.length) {
    const next = tables.filter((t) => !placed.has(t) && [...parents.get(t)!].every((p) => placed.has(p)));
    if (!next.length) throw new Error('the foreign keys between the tables form a cycle');
    for (const t of next) {
      placed.add(t);
      order.push(t);
    }
  }
  return order;
}

/**
 * Copies the rows of `table` (optionally filtered) from source to target in batches, each value through its text
 * form and cast back to its column's type. Walks the source in ctid order so that nothing is read twice.
 */
export async function copyRows(source: Sql, target: Sql, table: string, where = 'true'): Promise<number> {
  const cols = await columns(source, table);
  const names = cols.map((c) => `"${c.name.replaceAll('"', '""')}"`);
  const select = names.map((n, i) => `${n}::text as c${i}`).join(', ');
  const batch = Math.max(1, Math.min(500, Math.floor(30_000 / cols.length)));
  let after = '(0,0)';
  let copied = 0;
  for (;;) {
    const { rows } = await source.query<Record<string, string | null>>(
      `select ctid::text as __ctid, ${select} from ${qualified(table)} where ctid > $1::tid and (${where})
        order by ctid limit ${batch}`,
      [after],
    );
    if (!rows.length) return copied;
    const params: (string | null)[] = [];
    const tuples = rows.map((row) => {
      const slots = cols.map((c, i) => {
        params.push(row[`c${i}`] ?? null);
        return `$${params.length}::${c.type}`;
      });
      return `(${slots.join(', ')})`;
    });
    await target.query(
      `insert into ${qualified(table)} (${names.join(', ')}) overriding system value values ${tuples.join(', ')}`,
      params,
    );
    copied += rows.length;
    after = rows[rows.length - 1]!.__ctid!;
  }
}

/** Sets every serial or identity sequence of Herald's tables past the largest value copied. */
async function resetSequences(target: Sql): Promise<void> {
  const { rows } = await target.query<{ seq: string; tbl: string; col: string }>(
    `select pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) as seq,
            format('%I.%I', n.nspname, c.relname) as tbl, format('%I', a.attname) as col
       from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
        and pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) is not null`,
  );
  for (const r of rows) {
    await target.query(`select setval($1::regclass, coalesce((select max(${r.col}) from ${r.tbl}), 0) + 1, false)`, [
      r.seq,
    ]);
  }
}

interface QueueRow {
  name: string;
  policy: string;
  retry_limit: number;
  retry_delay: number;
  retry_backoff: boolean;
  expire_seconds: number;
  retention_seconds: number;
  deletion_seconds: number;
}

/** The queues and their pending jobs (created or waiting to retry): made again on the target, then copied. */
async function moveQueue(source: Sql, targetUrl: string, target: Sql): Promise<number> {
  const has = await source.query<{ n: number }>(
    `select count(*)::int as n from pg_tables where schemaname = 'pgboss' and tablename = 'queue'`,
  );
  if (!Number(has.rows[0]?.n)) return 0;
  const queues = (await source.query<QueueRow>('select * from pgboss.queue order by name')).rows;
  const { PgBoss } = await import('pg-boss');
  const boss = new PgBoss({ connectionString: targetUrl, max: 2, application_name: 'herald-db-move' });
  boss.on('error', () => {});
  await boss.start();
  try {
    for (const q of queues) {
      await boss.createQueue(q.name, {
        policy: q.policy as 'standard',
        retryLimit: q.retry_limit,
        retryDelay: q.retry_delay,
        retryBackoff: q.retry_backoff,
        expireInSeconds: q.expire_seconds,
        retentionSeconds: q.retention_seconds,
        deleteAfterSeconds: q.deletion_seconds,
      });
    }
  } finally {
    await boss.stop({ graceful: false });
  }
  return copyRows(source, target, 'pgboss.job', `state in ('created', 'retry')`);
}

export async function runMove(
  config: Config,
  to: string,
  o: { log?: (line: string) => void } = {},
): Promise<MoveResult> {
  const log = o.log ?? (() => {});
  if (config.databaseUrl) {
    throw new UsageError(
      'db move copies the embedded database of the data directory: run it without DATABASE_URL set (the target is --to).',
    );
  }
  if (!/^postgres(ql)?:\/\//.test(to)) throw new UsageError('--to must be a postgres:// URL');
  const probe = new pg.Client({ connectionString: to, application_name: 'herald-db-move' });
  try {
    await probe.connect();
  } catch (err) {
    throw new UsageError(`cannot connect to ${redactedUrl(to)}: ${(err as Error).message}`);
  }
  try {
    if (!(await isEmptyDatabase(probe))) {
      throw new UsageError(
        `${redactedUrl(to)} is not empty: db move copies into an empty database (create one: createdb herald)`,
      );
    }
  } finally {
    await probe.end().catch(() => {});
  }
  let source: Database;
  try {
    source = await openDatabase({ dataDir: config.dataDir, templateDir: config.pgliteTemplateDir });
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      throw new UsageError(`${err.message}\nStop the server before moving its database (systemctl stop herald).`);
    }
    throw err;
  }
  let target: Database | undefined;
  try {
    await source.migrate();
    log(`embedded database in ${config.dataDir} at the current schema; making the schema on ${redactedUrl(to)}`);
    target = await openDatabase({ databaseUrl: to, dataDir: config.dataDir, poolSize: 2 });
    await target.migrate();
    const from: Sql = source.pglite as PGlite;
    const order = await dependencyOrder(from);
    const client = await target.pool!.connect();
    let jobs = 0;
    try {
      await client.query('begin');
      for (const table of order) {
        const n = await copyRows(from, client, table);
        if (n) log(`${table}: ${n} rows`);
      }
      await resetSequences(client);
      await client.query('commit');
      jobs = await moveQueue(from, to, client);
      if (jobs) log(`job queue: ${jobs} pending jobs`);
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
    const want = await tableCounts(from);
    const got = await tableCounts(target.pool!);
    const wrong = Object.entries(want).filter(([t, n]) => got[t] !== n);
    if (wrong.length) {
      throw new Error(`the copied rows differ: ${wrong.map(([t, n]) => `${t} ${got[t] ?? 0}/${n}`).join(', ')}`);
    }
    const storage = config.media.storage;
    const instructions = [
      'The database is on PostgreSQL. Run Herald from now on with:',
      `  DATABASE_URL=${redactedUrl(to)}   (with its password)`,
      `  HERALD_DATA_DIR=${config.dataDir}   (keep it: ${[
        'secrets.json holds the signing and encryption keys the tokens were sealed with',
        ...(storage.driver === 'disk' ? [`media/ holds the media (${storage.root})`] : []),
      ].join('; ')})`,
      'In production (NODE_ENV=production) set HERALD_JWT_SECRET and HERALD_ENCRYPTION_KEY to the jwt_secret and ' +
        'encryption_key of secrets.json: secrets are never generated there with PostgreSQL.',
      `The embedded database (${config.dataDir}/pglite) is left as it was; remove it once the new setup runs.`,
    ];
    return { tables: got, jobs, instructions };
  } finally {
    await target?.close();
    await source.close();
  }
}

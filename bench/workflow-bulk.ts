// The bulk import benchmark (part of `npm run bench workflow`): 10,000 CSV rows, each scheduling one post, sent to a
// Herald started as `npm start` does on embedded PGlite: POST /unified/bulk/validate, then /unified/bulk/import.
// Measured: each request's wall time, the SQL statements the server sent for it (herald_db_statements_total of
// /metrics) and the server's peak RSS during it (VmHWM, reset before each request through /proc/<pid>/clear_refs)
// beside its RSS just before. Targets on PGlite: each request < 10 s, peak growth < 150 MiB.
//
// Environment (optional): HERALD_BENCH_BULK_ROWS=10000 (rows of the file); DATABASE_URL: the same on a fresh database
// of that PostgreSQL server too; BENCH_BASELINE=/path/to/another/checkout: that checkout first, then this one.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchDatabase, CLI, fmt, metricsText, metricValue, postJson, rssMiB, startHerald } from './lib.ts';

export interface BulkFigures {
  label: string;
  where: 'PGlite' | 'PostgreSQL';
  rows: number;
  validateStatements: number;
  importStatements: number;
  bytes: number;
  validateMs: number;
  importMs: number;
  rssBeforeMiB: number;
  validatePeakMiB: number;
  importPeakMiB: number;
}

const peakMiB = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
/** Starts the peak RSS over from the current RSS (Linux: writing 5 to clear_refs). */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** A CSV of `rows` posts to two networks' worth of columns, due over the next days. */
export function bulkCsv(rows: number, from: Date): string {
  const lines = ['text,networks,time,linkedin_text'];
  for (let i = 0; i < rows; i++) {
    const at = new Date(from.getTime() + (i + 1) * 60_000).toISOString();
    const network = i % 2 ? 'threads' : 'linkedin';
    const own = network === 'linkedin' ? `"Post ${i}, the LinkedIn version with a comma"` : '';
    lines.push(`Bulk post number ${i} with some words to make it a realistic caption,${network},${at},${own}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** SQL statements the server has sent so far (its /metrics counter). */
async function statements(url: string): Promise<number> {
  return metricValue(await metricsText(url), 'herald_db_statements_total');
}

export interface BulkRun {
  rows?: number;
  /** A PostgreSQL server: the run uses a fresh database of its own there (dropped afterwards); else PGlite. */
  databaseUrl?: string | undefined;
  /** The checkout's src/cli.ts (default: this one). */
  cli?: string;
  label?: string;
}

export async function benchBulk(o: BulkRun = {}): Promise<BulkFigures> {
  const rows = o.rows ?? Number(process.env.HERALD_BENCH_BULK_ROWS || 10_000);
  const dir = mkdtempSync(join(tmpdir(), 'herald-bench-bulk-'));
  const db = await benchDatabase(o.databaseUrl, 'bulk');
  const dbUrl = db.url;
  const plans = join(dir, 'plans.json');
  // Every new workspace may bulk-schedule without limits: the bench measures the import, not the plan table.
  writeFileSync(
    plans,
    JSON.stringify({
      plans: {
        free: {
          features: { bulk_scheduling_enabled: true, scheduling_enabled: true, drafts_enabled: true },
          limits: { scheduled_posts_per_month: null },
        },
      },
    }),
  );
  const herald = await startHerald(
    {
      HERALD_DATA_DIR: dir,
      HERALD_PLANS_FILE: plans,
      HERALD_WORKER_IN_PROCESS: '0',
      ...(dbUrl ? { DATABASE_URL: dbUrl } : {}),
    },
    { cli: o.cli ?? CLI },
  );
  try {
    const { url } = herald;
    const pid = herald.child.pid!;
    const session = await postJson<{ access_token: string }>(`${url}/auth/signup`, {
      email: 'bench-bulk@example.test',
      password: 'benchmark password',
    });
    const ws = (await (
      await fetch(`${url}/workspaces`, { headers: { authorization: `Bearer ${session.access_token}` } })
    ).json()) as { id: string }[];
    const headers = {
      authorization: `Bearer ${session.access_token}`,
      'x-workspace-id': ws[0]!.id,
      'content-type': 'text/csv',
    };
    const file = bulkCsv(rows, new Date(Date.now() + 3_600_000));
    const send = async (route: string) => {
      if (!resetPeak(pid)) throw new Error('cannot reset the peak RSS of the server (/proc/<pid>/clear_refs)');
      const sent = await statements(url);
      const t0 = performance.now();
      const res = await fetch(`${url}/unified/bulk/${route}`, { method: 'POST', headers, body: file });
      const body = (await res.json()) as { valid?: number; imported?: number };
      const ms = performance.now() - t0;
      if (res.status !== 200) throw new Error(`${route}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      const peak = peakMiB(pid);
      return { ms, peak, body, statements: (await statements(url)) - sent };
    };
    const rssBeforeMiB = rssMiB(pid);
    const validated = await send('validate');
    if (validated.body.valid !== rows) throw new Error(`validate: ${validated.body.valid} of ${rows} rows valid`);
    const imported = await send('import');
    if (imported.body.imported !== rows) throw new Error(`import: ${imported.body.imported} of ${rows} imported`);
    return {
      label: o.label ?? 'this checkout',
      where: dbUrl ? 'PostgreSQL' : 'PGlite',
      rows,
      validateStatements: validated.statements,
      importStatements: imported.statements,
      bytes: Buffer.byteLength(file),
      validateMs: validated.ms,
      importMs: imported.ms,
      rssBeforeMiB,
      validatePeakMiB: validated.peak,
      importPeakMiB: imported.peak,
    };
  } finally {
    await herald.stop();
    rmSync(dir, { recursive: true, force: true });
    await db.drop();
  }
}

/** One line per figure, for the workflow bench's report. */
export function formatBulk(f: BulkFigures): string {
  return [
    `bulk import, ${f.rows} CSV rows (${fmt(f.bytes / 1024 / 1024)} MiB), ${f.where}, ${f.label}:`,
    `  validate ${fmt(f.validateMs / 1000)} s, ${f.validateStatements} SQL statements, peak RSS ${fmt(f.validatePeakMiB)} MiB (+${fmt(f.validatePeakMiB - f.rssBeforeMiB)} over ${fmt(f.rssBeforeMiB)} MiB before)`,
    `  import   ${fmt(f.importMs / 1000)} s, ${f.importStatements} SQL statements, peak RSS ${fmt(f.importPeakMiB)} MiB (+${fmt(f.importPeakMiB - f.rssBeforeMiB)})`,
    ...(f.where === 'PGlite' ? ['  targets: each < 10 s, growth < 150 MiB'] : []),
  ].join('\n');
}

/** Every run: the baseline checkout (if any) then this one, on PGlite and (with a database URL) on PostgreSQL. */
export async function benchBulkAll(o: { baseline?: string | undefined; databaseUrl?: string | undefined }) {
  const checkouts = [
    ...(o.baseline ? [{ label: `baseline ${o.baseline}`, cli: join(o.baseline, 'src/cli.ts') }] : []),
    { label: 'this checkout', cli: CLI },
  ];
  for (const databaseUrl of [undefined, ...(o.databaseUrl ? [o.databaseUrl] : [])])
    for (const c of checkouts) console.log(formatBulk(await benchBulk({ ...c, databaseUrl })));
}

if (import.meta.filename === process.argv[1])
  await benchBulkAll({ baseline: process.env.BENCH_BASELINE, databaseUrl: process.env.DATABASE_URL });

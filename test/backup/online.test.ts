// herald backup while the server keeps running, on the back end the run uses: the embedded database through the
// server's hold (src/db/snapshot-hold.ts: the server holds still while the backup copies its files), PostgreSQL
// through pg_dump's snapshot. Posts keep coming in during the backup; the archive restores into a new install whose
// rows are those the manifest counted, whose scheduled posts fire and whose sealed tokens open.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackup } from '../../src/cli/backup/backup.ts';
import { runRestore } from '../../src/cli/backup/restore.ts';
import type { AppContext } from '../../src/context.ts';
import type { Harness } from '../helpers/harness.ts';
import { createTestDatabaseUrl } from '../helpers/harness.ts';
import { schedule } from '../scheduling/helpers.ts';
import { clock, HOUR, installConfig, linkedinTexts, openContext, populate, type Populated } from './helpers.ts';

const onPostgres = !!process.env.DATABASE_URL;
const drops: (() => Promise<void>)[] = [];
const dbUrl = async () => {
  const made = await createTestDatabaseUrl();
  if (made) drops.push(made.drop);
  return made?.url;
};

let src: Populated;
let restored: AppContext | undefined;
const dirs: string[] = [];
const file = join(tmpdir(), `herald-backup-online-${process.pid}.tar.gz`);

beforeAll(async () => {
  src = await populate(await dbUrl());
  dirs.push(src.config.dataDir);
}, 300_000);

afterAll(async () => {
  await restored?.close();
  await src?.ctx.close();
  await src?.app.close();
  for (const drop of drops) await drop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  rmSync(file, { force: true });
});

const statuses = async (ctx: AppContext) =>
  (
    (await ctx.database.db.execute(
      'select status, count(*)::int as n from scheduled_posts group by status order by status' as never,
    )) as unknown as { rows: { status: string; n: number }[] }
  ).rows;

describe(`backup while the server runs (${onPostgres ? 'PostgreSQL' : 'embedded PGlite'})`, () => {
  it('backs up while posts come in; the restore holds what the manifest counts, its posts fire, its tokens open', async () => {
    const h = { req: src.app.inject.bind(src.app), url: src.config.publicUrl } as unknown as Harness;
    const when = new Date(clock.now.getTime() + HOUR).toISOString();
    const answers: number[] = [];
    const refusals: string[] = [];
    let backingUp = true;
    let overlapping = 0;
    const post = async (i: number) => {
      const res = await schedule(h, src.user, {
        platforms: ['linkedin'],
        default_text: `Scheduled while the backup ran ${i}`,
        scheduled_time: when,
      });
      answers.push(res.statusCode);
      if (res.statusCode !== 200) refusals.push(res.body);
      return res;
    };
    // Posts keep coming while the backup runs, one every 50 ms or so, from before it starts until after it ends.
    await post(0);
    const traffic = (async () => {
      for (let i = 1; backingUp || i < 3; i++) {
        const startedDuring = backingUp;
        await post(i);
        if (startedDuring && backingUp) overlapping++;
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const result = await runBackup(src.config, { out: file }).finally(() => {
      backingUp = false;
    });
    await traffic;
    expect(refusals).toEqual([]);
    expect(overlapping).toBeGreaterThan(0);
    if (!onPostgres) {
      // The server kept the data directory: the copy was made under its hold.
      expect(result.heldMs).toBeTypeOf('number');
      expect(readFileSync(join(src.config.dataDir, 'pglite.lock'), 'utf8')).toBe(String(process.pid));
      expect(existsSync(join(src.config.dataDir, 'run', 'backup.sock'))).toBe(true);
    }
    // The scheduled posts in the backup: the one populate made, and at most every one made since.
    const counted = result.manifest.tables.scheduled_posts!;
    expect(counted).toBeGreaterThanOrEqual(2);
    expect(counted).toBeLessThanOrEqual(1 + answers.length);
    // The server still takes posts after the backup.
    expect((await post(answers.length)).statusCode).toBe(200);
    // No staging copy is left in the data directory.
    expect(readdirSync(src.config.dataDir).filter((n) => n.startsWith('backup-copy-'))).toEqual([]);

    const config = installConfig(Number(new URL(src.config.publicUrl).port), await dbUrl());
    dirs.push(config.dataDir);
    const { tables } = await runRestore(config, file);
    expect(tables).toEqual(result.manifest.tables);

    restored = await openContext(config);
    const [conn] = await restored.connectionStore.list(src.user.workspaceId);
    expect(restored.connectionStore.tokens(conn!).accessToken).toMatch(/\S/);
    expect(await statuses(restored)).toEqual([{ status: 'scheduled', n: counted }]);

    clock.advance(2 * HOUR);
    for (let i = 0; i < 10 && (await statuses(restored)).some((r) => r.status !== 'published'); i++) {
      await restored.scheduleWorker.tick();
    }
    expect(await statuses(restored)).toEqual([{ status: 'published', n: counted }]);
    const texts = await linkedinTexts(src.config.publicUrl);
    expect(texts.filter((t) => t.includes(src.scheduledText))).toHaveLength(1);
    expect(texts.filter((t) => t.includes('Scheduled while the backup ran 0'))).toHaveLength(1);
  }, 300_000);
});

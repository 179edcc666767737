// herald db move: a populated embedded install (a connected network, media, a draft, a published post, a scheduled
// post with its pending pg-boss job) copied into an empty PostgreSQL keeps every row, and the scheduled post fires
// from the new database with the data directory's secrets. Needs PostgreSQL (DATABASE_URL) as the target; the source
// is always the embedded database.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMove, type MoveResult } from '../../src/cli/backup/move.ts';
import { loadConfig } from '../../src/config.ts';
import type { AppContext } from '../../src/context.ts';
import { createTestDatabaseUrl } from '../helpers/harness.ts';
import { clock, HOUR, linkedinTexts, openContext, populate, type Populated } from './helpers.ts';

// Listed only on the PostgreSQL run (vitest.config.ts POSTGRES_ONLY): its target is a PostgreSQL database.

let src: Populated;
let target: { url: string; drop: () => Promise<void> } | undefined;
let moved: MoveResult;
let ctx: AppContext | undefined;
let before: Record<string, number>;

beforeAll(async () => {
  // The source is the embedded database whatever the run's back end.
  src = await populate(undefined, { queue: true });
  before = Object.fromEntries(
    await Promise.all(
      ['platform_connections', 'drafts', 'scheduled_posts', 'posts', 'users', 'workspaces'].map(async (t) => [
        t,
        Number(
          (
            (await src.ctx.database.db.execute(`select count(*)::int as n from ${t}` as never)) as unknown as {
              rows: { n: number }[];
            }
          ).rows[0]!.n,
        ),
      ]),
    ),
  );
  await src.ctx.close();
  target = await createTestDatabaseUrl();
  moved = await runMove(src.config, target!.url);
}, 600_000);

afterAll(async () => {
  await ctx?.close();
  await src?.app.close();
  await target?.drop();
  if (src) rmSync(src.config.dataDir, { recursive: true, force: true });
});

describe('db move from the embedded database to PostgreSQL', () => {
  it('copies every row and the pending jobs, and prints the configuration to keep', async () => {
    for (const [table, n] of Object.entries(before)) expect(moved.tables[table], table).toBe(n);
    expect(before.platform_connections).toBe(1);
    expect(before.drafts).toBe(1);
    expect(before.posts).toBeGreaterThanOrEqual(1);
    expect(moved.jobs).toBeGreaterThanOrEqual(1);
    const text = moved.instructions.join('\n');
    expect(text).toContain('DATABASE_URL=');
    expect(text).toContain(`HERALD_DATA_DIR=${src.config.dataDir}`);
    expect(text).toContain('secrets.json');
    const client = new pg.Client({ connectionString: target!.url });
    await client.connect();
    try {
      const { rows } = await client.query(
        `select count(*)::int as n from pgboss.job where name = 'herald-scheduled-post' and state = 'created'`,
      );
      expect(rows[0].n).toBeGreaterThanOrEqual(1);
    } finally {
      await client.end();
    }
  });

  it('runs on the new database: the sealed token opens and the scheduled post fires', async () => {
    const config = loadConfig({
      HERALD_DATA_DIR: src.config.dataDir,
      HERALD_PUBLIC_URL: src.config.publicUrl,
      HERALD_SANDBOX: '1',
      HERALD_LOG_LEVEL: 'silent',
      DATABASE_URL: target!.url,
    });
    ctx = await openContext(config);
    const [conn] = await ctx.connectionStore.list(src.user.workspaceId);
    expect(ctx.connectionStore.tokens(conn!).accessToken).toMatch(/\S/);
    expect(readFileSync(join(src.config.dataDir, 'media', src.mediaKey))).toEqual(src.mediaBytes);
    clock.advance(2 * HOUR);
    await ctx.scheduleWorker.tick();
    await ctx.scheduleWorker.tick();
    expect((await ctx.scheduling.store.byId(src.scheduledId))!.status).toBe('published');
    const texts = await linkedinTexts(src.config.publicUrl);
    expect(texts.filter((t) => t.includes(src.scheduledText))).toHaveLength(1);
  });

  it('refuses a target that is not empty', async () => {
    await expect(runMove(src.config, target!.url)).rejects.toThrow(/is not empty/);
  });
});

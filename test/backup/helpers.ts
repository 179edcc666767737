// An install on disk for the backup, restore and move tests: a data directory with the embedded database (or a
// fresh PostgreSQL database when DATABASE_URL is set), a context on a clock the test moves, and a REST app listening
// with the sandbox mounted. The sandbox's simulators keep their state in memory, so the app that connected a network
// keeps listening while later contexts (restored, moved) publish to its simulators through the same public URL.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pino from 'pino';
import { loadConfig, type Config } from '../../src/config.ts';
import { type AppContext, createContext } from '../../src/context.ts';
import { buildApp } from '../../src/transports/rest/app.ts';
import { connect } from '../connections/helpers.ts';
import type { Harness, TestUser } from '../helpers/harness.ts';
import { freePort } from '../helpers/net.ts';
import { schedule, TestClock } from '../scheduling/helpers.ts';

export const clock = new TestClock('2026-11-20T10:00:00Z');
export const HOUR = 3_600_000;

export function installConfig(port: number, databaseUrl?: string, env: Record<string, string> = {}): Config {
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-backup-test-'));
  return loadConfig({
    HERALD_DATA_DIR: dataDir,
    HERALD_PUBLIC_URL: `http://127.0.0.1:${port}`,
    HERALD_SANDBOX: '1',
    HERALD_LOG_LEVEL: 'silent',
    HERALD_AUTH_RATE_LIMIT_MAX: '100000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
}

export const openContext = (config: Config): Promise<AppContext> =>
  createContext(config, { logger: pino({ level: 'silent' }), clock: clock.fn });

export interface Populated {
  /** The app that listens (its sandbox keeps the networks' state); its context is closed by `closeDatabase`. */
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  user: TestUser;
  scheduledId: string;
  publishedText: string;
  scheduledText: string;
  mediaKey: string;
  mediaBytes: Buffer;
  draftId: string;
}

/** Signs up, connects LinkedIn through the sandbox, publishes a post, saves a draft, schedules one, stores media. */
export async function populate(
  databaseUrl?: string,
  o: { queue?: boolean; env?: Record<string, string> } = {},
): Promise<Populated> {
  const port = await freePort();
  const config = installConfig(port, databaseUrl, o.env);
  const ctx = await openContext(config);
  const app = await buildApp(ctx);
  await app.listen({ port, host: '127.0.0.1' });
  const h = { req: (o: InjectOptions) => app.inject(o), url: config.publicUrl };
  const su = await app.inject({
    method: 'POST',
    url: '/auth/signup',
    payload: { email: 'owner@example.test', password: 'correct horse battery' },
  });
  const token = (su.json() as { access_token: string }).access_token;
  const ws = await app.inject({ method: 'GET', url: '/workspaces', headers: { authorization: `Bearer ${token}` } });
  const user: TestUser = {
    token,
    userId: (su.json() as { user: { id: string } }).user.id,
    email: 'owner@example.test',
    password: 'correct horse battery',
    workspaceId: (ws.json() as { id: string }[])[0]!.id,
  };
  // As `herald serve` does: scheduling then also enqueues a pg-boss wake-up for the post.
  if (o.queue) await ctx.scheduleQueue?.start();
  const headers = { authorization: `Bearer ${token}`, 'x-workspace-id': user.workspaceId };
  await connect(h as unknown as Harness, user, 'linkedin');
  const publishedText = `Published before the backup ${Date.now()}`;
  const pub = await app.inject({
    method: 'POST',
    url: '/unified/post/text',
    headers,
    payload: { platforms: ['linkedin'], default_text: publishedText },
  });
  if (pub.statusCode !== 200) throw new Error(`publish: ${pub.statusCode} ${pub.body}`);
  const draft = await app.inject({
    method: 'POST',
    url: '/unified/post/text',
    headers,
    payload: { platforms: ['linkedin'], default_text: 'A draft kept for later', draft: true },
  });
  if (draft.statusCode !== 200) throw new Error(`draft: ${draft.statusCode} ${draft.body}`);
  const drafts = await ctx.database.db.execute('select id from drafts' as never);
  const scheduledText = `Scheduled across the backup ${Date.now()}`;
  const sch = await schedule(h as unknown as Harness, user, {
    platforms: ['linkedin'],
    default_text: scheduledText,
    scheduled_time: new Date(clock.now.getTime() + HOUR).toISOString(),
  });
  if (sch.statusCode !== 200) throw new Error(`schedule: ${sch.statusCode} ${sch.body}`);
  const mediaKey = `${user.workspaceId}/backup-check.bin`;
  const mediaBytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 251));
  await ctx.media.storage.put(mediaKey, Readable.from([mediaBytes]), { contentType: 'application/octet-stream' });
  return {
    app,
    ctx,
    config,
    user,
    scheduledId: (sch.json() as { scheduled: { scheduled_post_id: string }[] }).scheduled[0]!.scheduled_post_id,
    publishedText,
    scheduledText,
    mediaKey,
    mediaBytes,
    draftId: String((drafts as unknown as { rows: { id: string }[] }).rows[0]?.id),
  };
}

/** The texts of the posts LinkedIn's simulator holds. */
export async function linkedinTexts(publicUrl: string): Promise<string[]> {
  const state = (await (await fetch(`${publicUrl}/sandbox/_state?platform=linkedin`)).json()) as Record<
    string,
    { posts: { text?: string; commentary?: string }[] }
  >;
  return state.linkedin!.posts.map((p) => p.commentary ?? p.text ?? '');
}

/** Marks the data directory's lock as held by another live process (this one's parent). */
export function lockByAnotherProcess(config: Config): void {
  writeFileSync(join(config.dataDir, 'pglite.lock'), String(process.ppid));
}

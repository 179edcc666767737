// The checks behind `herald doctor`: each reads the configuration (and, where it must, the database, the storage,
// the SMTP server or a program on the PATH) and answers ok / warn / fail / skip with what to do about it. A check
// never changes anything it does not put back: the storage check deletes the object it wrote, the database check
// does not create or migrate an embedded database.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import type { Config } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { DataDirLockedError } from '../db/lock.ts';
import { createMediaStorage } from '../media/storage/index.ts';
import {
  installCommand,
  MissingPackageError,
  missingPackages,
  OPTIONAL_FEATURES,
  type OptionalFeature,
} from '../optional-packages.ts';
import { NETWORKS } from '../platforms/registry.ts';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  check: string;
  status: CheckStatus;
  detail: string;
  /** What to do about a warn or fail. */
  fix?: string;
}

const LOOPBACK = /^(?:localhost|[^.]+\.localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;
const run = promisify(execFile);

function result(check: string, status: CheckStatus, detail: string, fix?: string): CheckResult {
  return fix ? { check, status, detail, fix } : { check, status, detail };
}

export function isLoopbackUrl(url: string): boolean {
  return LOOPBACK.test(new URL(url).hostname);
}

/** HERALD_PUBLIC_URL: https, or loopback for a server used on its own machine; a proxy in front is trusted. */
export function checkPublicUrl(config: Config): CheckResult[] {
  const url = new URL(config.publicUrl);
  const out: CheckResult[] = [];
  if (url.protocol === 'https:') out.push(result('public URL', 'ok', config.publicUrl));
  else if (isLoopbackUrl(config.publicUrl))
    out.push(
      result(
        'public URL',
        'warn',
        `${config.publicUrl}: reachable from this machine only`,
        'set HERALD_PUBLIC_URL to the https address people and networks reach this server at',
      ),
    );
  else
    out.push(
      result(
        'public URL',
        'fail',
        `${config.publicUrl} is not https: networks refuse http callbacks and browsers drop the session cookie's Secure flag`,
        'serve Herald behind a TLS proxy (docs/deployment/reverse-proxy.md) and set HERALD_PUBLIC_URL=https://…',
      ),
    );
  if (url.protocol === 'https:' && !isLoopbackUrl(config.publicUrl) && config.trustProxy === false) {
    out.push(
      result(
        'proxy',
        'warn',
        'HERALD_PUBLIC_URL is https but no proxy is trusted: Herald sees the proxy as every client (rate limits, logs)',
        'set HERALD_TRUST_PROXY to the proxy in front (true for one hop; see docs/configuration.md)',
      ),
    );
  }
  return out;
}

/** Per network: credentials complete (or none), the callback URL to register, the operator's declarations. */
export function checkNetworks(config: Config): CheckResult[] {
  return NETWORKS.map((n) => {
    const name = `network ${n.slug}`;
    if (config.sandbox) return result(name, 'ok', 'simulated (sandbox mode): no app needed');
    if (n.authKind === 'app_password') return result(name, 'ok', 'users connect with an app password: no app needed');
    const c = config.platforms[n.slug];
    const env = `HERALD_${n.slug.toUpperCase()}`;
    if (!c?.clientId && !c?.clientSecret)
      return result(name, 'skip', `not configured (set ${env}_CLIENT_ID and ${env}_CLIENT_SECRET to offer it)`);
    if (!c.clientId || !c.clientSecret) {
      const missing = !c.clientId ? `${env}_CLIENT_ID` : `${env}_CLIENT_SECRET`;
      return result(name, 'fail', `${missing} is missing`, `set ${missing} from the network's developer portal`);
    }
    const declared = Object.entries(n.operatorSettings ?? {}).map(([key, unset]) => {
      const camel = key.toLowerCase().replace(/_([a-z])/g, (_m, ch: string) => ch.toUpperCase());
      const value = c.settings?.[camel];
      return value === undefined ? `${env}_${key} ${unset}` : `${env}_${key}=${value}`;
    });
    return result(
      name,
      'ok',
      [`register the callback ${config.publicUrl}/${n.slug}/oauth/callback`, ...declared].join('; '),
    );
  });
}

/**
 * The optional packages the configuration needs (the AI SDK for an external AI provider, the S3 SDK for S3 storage):
 * installed, or the command that adds them. The server install (`npm ci --omit=dev`) leaves them out.
 */
export function checkOptionalPackages(
  config: Config,
  missing: (feature: OptionalFeature) => string[] = missingPackages,
): CheckResult[] {
  const needed: OptionalFeature[] = [];
  if (config.ai.provider !== 'builtin') needed.push(config.ai.provider);
  if (config.media.storage.driver === 's3') needed.push('s3');
  if (!needed.length) return [result('optional packages', 'skip', 'none needed (built-in AI provider, media on disk)')];
  return needed.map((feature) => {
    const { what, packages } = OPTIONAL_FEATURES[feature];
    const lacking = missing(feature);
    return lacking.length
      ? result(`packages for ${what}`, 'fail', `not installed: ${lacking.join(', ')}`, installCommand(lacking))
      : result(`packages for ${what}`, 'ok', packages.join(', '));
  });
}

/** Storage: a put, get and delete round trip of a small object (disk or S3). */
export async function checkStorage(config: Config): Promise<CheckResult> {
  const where = config.media.storage.driver === 's3' ? `S3 bucket ${config.media.storage.bucket}` : 'disk';
  const key = `doctor/${randomUUID()}.txt`;
  const body = `herald doctor ${new Date().toISOString()}`;
  try {
    const storage = await createMediaStorage(config.media.storage);
    await storage.put(key, Readable.from([Buffer.from(body)]), {
      contentType: 'text/plain',
      contentLength: Buffer.byteLength(body),
    });
    const got = await storage.get(key);
    const chunks: Buffer[] = [];
    for await (const chunk of got.body) chunks.push(Buffer.from(chunk as Uint8Array));
    await storage.delete(key);
    if (Buffer.concat(chunks).toString() !== body) {
      return result('storage', 'fail', `${where}: what was read back differs from what was written`);
    }
    return result('storage', 'ok', `${where}: write, read and delete work`);
  } catch (err) {
    const fix =
      err instanceof MissingPackageError
        ? installCommand(err.packages)
        : config.media.storage.driver === 's3'
          ? 'check HERALD_S3_ENDPOINT, HERALD_S3_BUCKET and the key pair (the key needs put, get and delete)'
          : `make ${join(config.dataDir, 'media')} writable by the user Herald runs as`;
    return result('storage', 'fail', `${where}: ${(err as Error).message}`, fix);
  }
}

/** The database: reachable, migrated (not newer than this build), and its clock against this machine's. */
export async function checkDatabase(config: Config, now: () => number = Date.now): Promise<CheckResult[]> {
  if (!config.databaseUrl && !existsSync(join(config.dataDir, 'pglite', 'PG_VERSION'))) {
    return [result('database', 'warn', `no embedded database in ${config.dataDir} yet: the first start makes it`)];
  }
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      return [result('database', 'ok', 'embedded, in use by a running Herald (its GET /readyz reports migrations)')];
    }
    return [
      result(
        'database',
        'fail',
        `cannot connect: ${(err as Error).message}`,
        'check DATABASE_URL (host, port, database, user) and that PostgreSQL accepts connections from here',
      ),
    ];
  }
  try {
    const { sql } = await import('drizzle-orm');
    await database.db.execute(sql`select 1`);
  } catch (err) {
    await database.close().catch(() => {});
    const cause = (err as Error).cause instanceof Error ? ((err as Error).cause as Error) : (err as Error);
    return [
      result(
        'database',
        'fail',
        `cannot connect: ${cause.message}`,
        'check DATABASE_URL (host, port, database, user) and that PostgreSQL accepts connections from here',
      ),
    ];
  }
  try {
    const { applied, shipped } = await database.migrationStatus();
    const kind = database.kind === 'postgres' ? 'PostgreSQL' : 'embedded PGlite';
    const out: CheckResult[] = [];
    if (applied === shipped) out.push(result('database', 'ok', `${kind}, schema up to date (${applied} migrations)`));
    else if (applied < shipped)
      out.push(
        result(
          'database',
          'warn',
          `${kind}, ${shipped - applied} migration(s) not applied yet`,
          'the next start applies them (or run `herald migrate`)',
        ),
      );
    else
      out.push(
        result(
          'database',
          'fail',
          `${kind} was migrated by a newer Herald (${applied} migrations; this one knows ${shipped})`,
          'run the newer Herald, or restore a backup made by this version',
        ),
      );
    if (database.kind === 'postgres') out.push(await clockSkew(database, now));
    return out;
  } catch (err) {
    return [result('database', 'fail', (err as Error).message)];
  } finally {
    await database.close();
  }
}

async function clockSkew(database: { db: { execute(q: unknown): Promise<unknown> } }, now: () => number) {
  const { sql } = await import('drizzle-orm');
  const before = now();
  const res = (await database.db.execute(sql`select extract(epoch from clock_timestamp()) * 1000 as ms`)) as {
    rows: { ms: string | number }[];
  };
  const local = (before + now()) / 2;
  const skew = Math.abs(Number(res.rows[0]!.ms) - local) / 1000;
  const detail = `this machine and the database differ by ${skew.toFixed(1)} s`;
  if (skew > 30) return result('clock', 'fail', detail, 'run NTP (systemd-timesyncd or chrony) on both machines');
  if (skew > 2) return result('clock', 'warn', detail, 'run NTP on both machines: schedules fire by the database');
  return result('clock', 'ok', detail);
}

/** SMTP: a connection and greeting when HERALD_SMTP_URL is set. */
export async function checkSmtp(config: Config): Promise<CheckResult> {
  if (!config.smtpUrl) return result('mail', 'skip', 'HERALD_SMTP_URL unset: mails wait in the outbox');
  const { createTransport } = await import('nodemailer');
  const transport = createTransport({ url: config.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000 });
  const host = new URL(config.smtpUrl).host;
  try {
    await transport.verify();
    return result('mail', 'ok', `SMTP server ${host} answers and accepts the login`);
  } catch (err) {
    return result('mail', 'fail', `SMTP server ${host}: ${(err as Error).message}`, 'check HERALD_SMTP_URL');
  } finally {
    transport.close();
  }
}

/** The programs media and the built-in AI provider use, found on the PATH (or where their settings say). */
export async function checkPrograms(config: Config): Promise<CheckResult[]> {
  const programs: [string, string | false, string, string][] = [
    ['ffprobe', config.media.ffprobePath, 'HERALD_FFPROBE_PATH', 'video dimensions and durations are read by Herald'],
    ['ffmpeg', config.ai.ffmpegPath, 'HERALD_FFMPEG_PATH', 'the built-in AI provider cannot read video frames'],
    ['tesseract', config.ai.tesseractPath, 'HERALD_TESSERACT_PATH', 'the built-in AI provider cannot read image text'],
  ];
  return Promise.all(
    programs.map(async ([name, path, setting, without]) => {
      if (path === false) return result(name, 'skip', `switched off (${setting})`);
      try {
        const { stdout, stderr } = await run(path, [name === 'tesseract' ? '--version' : '-version'], {
          timeout: 10_000,
        });
        const first = `${stdout}${stderr}`.split('\n')[0]!.trim();
        return result(name, 'ok', first);
      } catch {
        return result(
          name,
          'warn',
          `${path} not found: ${without}`,
          `install it (Debian: apt install ${name === 'tesseract' ? 'tesseract-ocr tesseract-ocr-eng' : 'ffmpeg'}) or set ${setting}`,
        );
      }
    }),
  );
}

/** Where ChatGPT and MCP clients are told to go: the addresses as they will see them. */
export function checkAssistantUrls(config: Config): CheckResult[] {
  const https = config.publicUrl.startsWith('https:');
  const fix = https ? undefined : 'ChatGPT only signs in to https servers: set an https HERALD_PUBLIC_URL';
  return [
    result(
      'GPT Actions',
      https ? 'ok' : 'warn',
      `schema ${config.publicUrl}/openapi/chatgpt-actions.json, OAuth ${config.publicUrl}/auth/oauth/login`,
      fix,
    ),
    result('MCP', https ? 'ok' : 'warn', `${config.publicUrl}/mcp`, fix),
  ];
}

// pg_dump and pg_restore for a PostgreSQL install: found on PATH, their major version checked against the server's,
// run with the password in the environment (never on a command line other users can read).
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { UsageError } from '../errors.ts';

export type PgTool = 'pg_dump' | 'pg_restore';

/** The major version of a PostgreSQL client program, or an error saying how to install it. */
export async function toolMajor(tool: PgTool): Promise<number> {
  let out: string;
  try {
    ({ stdout: out } = await promisify(execFile)(tool, ['--version'], { timeout: 10_000 }));
  } catch {
    throw new UsageError(
      `${tool} was not found: it ships with the PostgreSQL client programs (Debian and Ubuntu: apt install postgresql-client; ` +
        'its major version must be at least the server’s).',
    );
  }
  const match = /\(PostgreSQL\)\s+(\d+)/.exec(out) ?? /(\d+)\.\d+/.exec(out);
  if (!match) throw new UsageError(`could not read the version of ${tool} from: ${out.trim()}`);
  return Number(match[1]);
}

/** Refuses a client program older than the server (pg_dump cannot dump a newer server). */
export async function checkTool(tool: PgTool, serverMajor: number): Promise<number> {
  const major = await toolMajor(tool);
  if (major < serverMajor) {
    throw new UsageError(
      `${tool} ${major} is older than the PostgreSQL server (${serverMajor}): install the client programs of version ` +
        `${serverMajor} or later (Debian and Ubuntu: apt install postgresql-client-${serverMajor}).`,
    );
  }
  return major;
}

/** The URL without its password, and the environment that carries it. */
function connection(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (u.password) env.PGPASSWORD = decodeURIComponent(u.password);
  u.password = '';
  return { url: u.toString(), env };
}

/** Runs pg_dump or pg_restore against `url` with `args`; rejects with its error output when it fails. */
export function runTool(tool: PgTool, url: string, args: string[]): Promise<void> {
  const c = connection(url);
  return new Promise((resolve, reject) => {
    const child = spawn(tool, [...args, `--dbname=${c.url}`], { env: c.env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 8000) err += chunk.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${tool} failed (exit ${code}): ${err.trim()}`));
    });
  });
}

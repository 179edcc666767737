// The README's sandbox walkthrough, run as a newcomer would: its ```sh walkthrough blocks, verbatim, with bash,
// against `herald serve` started here in sandbox mode on a fresh data directory, until the scheduled post is out.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/net.ts';
import { until } from '../helpers/poll.ts';

const ROOT = join(import.meta.dirname, '../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const BLOCKS = [...README.matchAll(/^```sh walkthrough\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a script with bash, stopping at the first failing command, from `cwd`. */
function bash(script: string, env: Record<string, string>, cwd: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the README walkthrough', () => {
  const dirs: string[] = [];
  let server: ChildProcess | undefined;
  let log = '';
  let herald = '';
  let work = '';

  beforeAll(async () => {
    const data = mkdtempSync(join(tmpdir(), 'herald-readme-data-'));
    work = mkdtempSync(join(tmpdir(), 'herald-readme-work-'));
    dirs.push(data, work);
    const port = await freePort();
    herald = `http://127.0.0.1:${port}`;
    // The embedded mode on a fresh data directory, as `HERALD_SANDBOX=1 npm start` on a new checkout.
    const { DATABASE_URL: _ignored, ...env } = process.env;
    server = spawn(process.execPath, [join(ROOT, 'src/cli.ts'), 'serve'], {
      cwd: ROOT,
      env: {
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        HERALD_PUBLIC_URL: herald,
        HERALD_DATA_DIR: data,
        HERALD_SANDBOX: '1',
        HERALD_LOG_FORMAT: 'json',
        HERALD_LOG_REQUESTS: 'errors',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (d) => (log += d));
    server.stderr!.on('data', (d) => (log += d));
    await until(() => log.includes('Herald is ready'), { timeoutMs: 120_000, intervalMs: 100 });
  }, 180_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server!.once('exit', r));
    }
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('the first start says what it is doing, then sums up once', () => {
    const msgs = log
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
    const creating = msgs.findIndex((m) => m.startsWith('creating the embedded database in '));
    const applying = msgs.findIndex((m) => /^applying database migrations: \d+ \(schema version \d+\)…$/.test(m));
    const migrated = msgs.findIndex((m) => /^database migrations applied: \d+ \(schema version \d+\)$/.test(m));
    const ready = msgs.findIndex((m) => m.startsWith(`Herald is ready: open ${herald}\n`));
    expect([creating >= 0, creating < applying, applying < migrated, migrated < ready]).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(msgs.filter((m) => m.startsWith('Herald is ready'))).toHaveLength(1);
    expect(msgs[ready]).toContain('\n  sandbox   on: ');
  });

  it('marks its walkthrough blocks', () => {
    expect(BLOCKS.length).toBeGreaterThanOrEqual(4);
    expect(BLOCKS[0]).toMatch(/^HERALD=\$\{HERALD:-http:\/\/localhost:8080\}$/m);
    // The base URL is written once; every other block uses $HERALD.
    expect(BLOCKS.join('\n').match(/localhost:8080/g)).toHaveLength(1);
  });

  it('runs verbatim: sign-up, key, two networks, upload, publish, a scheduled post that goes out, comments', {
    timeout: 300_000,
  }, async () => {
    // DELAY shortens the "minute ahead" of the scheduling block; NODE_PATH lets its `node -e` find sharp from a
    // scratch directory (the walkthrough writes hello.png where it runs).
    const env = { HERALD: herald, DELAY: '2', NODE_PATH: join(ROOT, 'node_modules') };
    const script = `${BLOCKS.join('\n')}\nprintf '\\n__KEY=%s\\n' "$KEY"`;
    const first = await bash(script, env, work);
    expect(first.code, `${first.stderr}\n--- server log ---\n${log}`).toBe(0);
    expect(first.stderr).toBe('');
    const out = first.stdout;
    expect(out).toMatch(/"linkedin":\{"success":true,[^}]*"connected":true\}/);
    expect(out).toMatch(/"bluesky":\{"success":true,[^}]*"connected":true\}/);
    expect(out).toMatch(/\{"platform":"linkedin","post_id":"urn:li:share:\d+"/);
    // In the sandbox a permalink opens Herald's page of the simulated post, in the network's own URL form.
    const at = herald.replace(/[.]/g, '\\.');
    expect(out).toMatch(new RegExp(`^linkedin published ${at}/sandbox/linkedin/`, 'm'));
    expect(out).toMatch(new RegExp(`^bluesky published ${at}/sandbox/bluesky/profile/me\\.sandbox/post/`, 'm'));
    expect(out).toMatch(/^Zed Quinn: Great news!$/m);

    // What the API itself says about the scheduled posts.
    const key = /__KEY=(\S+)/.exec(out)![1]!;
    const queue = (await (
      await fetch(`${herald}/unified/scheduled-posts`, { headers: { 'x-api-key': key } })
    ).json()) as { data: { scheduled_posts: { platform: string; status: string }[] } };
    expect(queue.data.scheduled_posts.map((p) => `${p.platform} ${p.status}`).sort()).toEqual([
      'bluesky published',
      'linkedin published',
    ]);

    // Pasted again (after a restart, say): the first block logs in instead of failing on sign-up.
    const again = await bash(`${BLOCKS[0]}\necho "TOKEN=\${TOKEN:0:3}"`, env, work);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('TOKEN=eyJ\n');
  });

  it("says what went wrong, with the API's detail and a non-zero exit, never a stack trace", async () => {
    const conflict = await bash(
      `${BLOCKS[0]}\ncurl -sS $HERALD/auth/signup -H 'content-type: application/json' -d "$ME" | field .access_token`,
      { HERALD: herald },
      work,
    );
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toBe('herald: "An account with this email already exists."\n');
    const down = await bash(
      `${BLOCKS[0]!.split('\nME=')[0]}\necho -n '' | field .access_token`,
      { HERALD: herald },
      work,
    );
    expect(down.code).toBe(1);
    expect(down.stderr).toBe('herald: no answer\n');
  });
});

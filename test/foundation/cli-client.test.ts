// The command line as a client of a running Herald (`herald post`, `posts`, `connections`): real processes against a
// sandbox server listening on loopback, with an API key, as someone scripting Herald would use them.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, sandboxState } from '../connections/helpers.ts';
import { createHarness, type Harness } from '../helpers/harness.ts';
import { png } from '../media-routes/helpers.ts';

const exec = promisify(execFile);
const BIN = join(import.meta.dirname, '../../bin/herald.js');

let h: Harness;
let key: string;
const dir = mkdtempSync(join(tmpdir(), 'herald-cli-client-'));

async function herald(args: string[], env: Record<string, string> = {}) {
  const base = { ...process.env, HERALD_URL: h.url, HERALD_API_KEY: key, ...env };
  try {
    const r = await exec(process.execPath, [BIN, ...args], { env: base, timeout: 120_000 });
    return { code: 0, ...r };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

beforeAll(async () => {
  h = await createHarness({ sandbox: true });
  const u = await h.signup();
  await connect(h, u, 'linkedin');
  await connect(h, u, 'bluesky');
  key = await h.createKey(u);
});
afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('herald client commands', () => {
  it('lists the connections', async () => {
    const r = await herald(['connections']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^linkedin\tconnected/m);
    expect(r.stdout).toMatch(/^bluesky\tconnected/m);
    expect(r.stdout).toMatch(/^pinterest\tnot connected/m);
  });

  it('publishes a text post to two networks and prints where each went', async () => {
    const r = await herald(['post', 'Hello from the command line', '--to', 'linkedin,bluesky']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^linkedin\tpublished\t\S+/m);
    expect(r.stdout).toMatch(/^bluesky\tpublished\t\S+/m);
    const state = await sandboxState(h);
    expect(JSON.stringify(state.linkedin)).toContain('Hello from the command line');
  });

  it('uploads an image and posts it', async () => {
    const file = join(dir, 'photo.png');
    writeFileSync(file, await png(320, 240));
    const r = await herald(['post', 'A picture', '--to', 'linkedin', '--image', file, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ success: true, post: { platform: 'linkedin' } });
  });

  it('schedules a post and lists it with `herald posts`', async () => {
    const at = new Date(Date.now() + 3 * 24 * 3600_000).toISOString();
    const r = await herald(['post', 'Later, from a script', '--to', 'linkedin', '--at', at]);
    expect(r.code, r.stderr).toBe(0);
    const listed = await herald(['posts', '--status', 'scheduled', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const rows = JSON.parse(listed.stdout) as { platform: string; status: string; scheduled_time: string }[];
    expect(rows).toContainEqual(expect.objectContaining({ platform: 'linkedin', status: 'scheduled' }));
    const table = await herald(['posts']);
    expect(table.stdout).toMatch(/\tlinkedin\tscheduled\t.*Later, from a script/);
  });

  it("puts a post in the default queue's next free slot with --queue", async () => {
    const r = await herald(['post', 'Queued from a script', '--to', 'linkedin', '--queue', 'default']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^linkedin\tqueued\t\d{4}-\d\d-\d\dT\d\d:\d\d.* \(default\)$/m);
    const both = await herald(['post', 'x', '--to', 'linkedin', '--queue', 'default', '--draft']);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('give one of --at, --queue, --draft');
  });

  it("prints the API's reason and exits 1 when the server refuses", async () => {
    const r = await herald(['post', 'x', '--to', 'pinterest']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^herald: the server answered 4\d\d: /);
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
    const badKey = await herald(['connections'], { HERALD_API_KEY: 'psk_live_not-a-key' });
    expect(badKey.code).toBe(1);
    expect(badKey.stderr).toMatch(/the server answered 401/);
    expect(badKey.stderr).not.toContain('psk_live_not-a-key');
  });

  it('refuses bad arguments before calling the server', async () => {
    const r = await herald(['post', 'x', '--to', 'linkedin', '--at', 'next tuesday']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--at next tuesday: not a date and time');
    const noKey = await herald(['connections'], { HERALD_API_KEY: '' });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain('set HERALD_API_KEY');
  });
});

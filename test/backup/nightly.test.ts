// docs/backup.md's nightly backups, as written: a systemd service and timer and a cron line, both running
// `herald backup` without stopping the server, and the retention rule of each, run here on archives of every age.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultBackupName } from '../../src/cli/backup/backup.ts';

const run = promisify(execFile);
const DOC = readFileSync(join(import.meta.dirname, '../../docs/backup.md'), 'utf8');
const section = DOC.slice(DOC.indexOf('## Nightly backups'), DOC.indexOf('## Upgrading'));
const block = (lang: string) =>
  [...section.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
const DIR = '/var/backups/herald';
const DAY = 86_400_000;
const dirs: string[] = [];

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A backup directory with one archive a night for `nights` nights (the newest an hour old), plus a stale partial. */
function archives(nights: number): { dir: string; now: Date } {
  const dir = mkdtempSync(join(tmpdir(), 'herald-nightly-'));
  dirs.push(dir);
  const now = new Date();
  for (let n = 0; n < nights; n++) {
    const at = new Date(now.getTime() - n * DAY - 3_600_000);
    const file = join(dir, defaultBackupName(at));
    writeFileSync(file, 'archive');
    utimesSync(file, at, at);
  }
  const partial = join(dir, `${defaultBackupName(new Date(now.getTime() - 20 * DAY))}.0a1b2c3d.partial`);
  writeFileSync(partial, 'cut short');
  utimesSync(partial, new Date(now.getTime() - 20 * DAY), new Date(now.getTime() - 20 * DAY));
  // Not a backup: retention leaves it alone, however old.
  writeFileSync(join(dir, 'README'), 'keep');
  utimesSync(join(dir, 'README'), new Date(now.getTime() - 90 * DAY), new Date(now.getTime() - 90 * DAY));
  return { dir, now };
}

const kept = (dir: string) => readdirSync(dir).sort();

function expectTwoWeeks(dir: string, now: Date): void {
  const left = kept(dir);
  expect(left).toContain('README');
  expect(left.filter((f) => f.endsWith('.partial'))).toEqual([]);
  const names = left.filter((f) => f.endsWith('.tar.gz'));
  expect(names).toHaveLength(14);
  expect(names).toEqual(
    Array.from({ length: 14 }, (_, n) => defaultBackupName(new Date(now.getTime() - n * DAY - 3_600_000))).sort(),
  );
}

describe('nightly backups in docs/backup.md', () => {
  it('the systemd service backs up without stopping the server, and its retention keeps two weeks', async () => {
    const [service, timer] = block('ini');
    expect(service).toMatch(/^ExecStart=\/usr\/bin\/herald backup$/m);
    expect(service).not.toMatch(/systemctl (stop|start)/);
    expect(timer).toMatch(/^OnCalendar=\*-\*-\* 03:30:00$/m);
    expect(timer).toMatch(/^Persistent=true$/m);
    // systemd splits ExecStartPost on spaces and hands the words to find as they are (no shell, no glob).
    const post = /^ExecStartPost=(.+)$/m.exec(service!)![1]!.split(' ');
    expect(post[0]).toBe('/usr/bin/find');
    const { dir, now } = archives(21);
    await run(
      'find',
      post.slice(1).map((w) => (w === DIR ? dir : w)),
    );
    expectTwoWeeks(dir, now);
  });

  it('the cron line backs up without stopping the server, and prunes only after a backup that succeeded', async () => {
    const [cron] = block('cron');
    const line = cron!.trim();
    expect(line).toMatch(/^30 3 \* \* \* /);
    expect(line).not.toMatch(/systemctl/);
    const command = line.replace(/^(\S+\s+){5}/, '');
    const [, backup, prune] = /^(.*herald backup) && (find .*)$/.exec(command)!;
    expect(backup).toMatch(/^cd \/var\/backups\/herald && /);
    const { dir, now } = archives(21);
    await run('sh', ['-c', prune!.replaceAll(DIR, dir)]);
    expectTwoWeeks(dir, now);
  });
});

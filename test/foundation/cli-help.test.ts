// The command line's help, version and argument errors, as a user meets them in a terminal: real processes, and
// nothing here may open a database (`herald --help` must work on a machine where nothing is configured).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const exec = promisify(execFile);
const BIN = join(import.meta.dirname, '../../bin/herald.js');
const VERSION = (
  JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }
).version;

type Outcome = { code: number; stdout: string; stderr: string };
async function herald(...args: string[]): Promise<Outcome> {
  // A DATABASE_URL pointing nowhere proves these commands never connect.
  const env = { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
  try {
    const r = await exec(process.execPath, [BIN, ...args], { env });
    return { code: 0, ...r };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('herald command line', () => {
  it('lists every command in --help and exits 0', async () => {
    const r = await herald('--help');
    expect(r.code).toBe(0);
    for (const command of [
      'serve',
      'worker',
      'migrate',
      'doctor',
      'version',
      'post',
      'posts',
      'connections',
      'user',
      'key',
      'workspace',
      'mail',
    ]) {
      expect(r.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
  });

  it("prints a command's own options with `<command> --help`", async () => {
    const r = await herald('key', 'create', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: herald key create [options]');
    expect(r.stdout).toContain('--workspace <id>');
    expect(r.stdout).toContain('--scope <scope>');
  });

  it('prints the package version for `version` and `--version`', async () => {
    expect((await herald('version')).stdout.trim()).toBe(VERSION);
    expect((await herald('--version')).stdout.trim()).toBe(VERSION);
  });

  it('refuses an unknown command and a missing required option with exit code 1, before opening anything', async () => {
    const unknown = await herald('publish-everything');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("unknown command 'publish-everything'");
    const missing = await herald('key', 'create');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("required option '--workspace <id>' not specified");
    expect(missing.stderr).not.toMatch(/ECONNREFUSED|at .*\.ts:\d+/);
  });
});

// An old Node.js gets one line naming the version Herald needs, before any TypeScript source is loaded.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem, requiredVersion } from '../../bin/check-node.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
const SYSTEM_NODE = '/usr/bin/node';
type Failure = { code: number; stdout: string; stderr: string };

describe('the Node.js version check', () => {
  it('reads the minimum from package.json and compares major, minor and patch', () => {
    expect(requiredVersion()).toEqual([22, 19, 0]);
    for (const ok of ['v22.19.0', 'v22.19.1', 'v22.20.0', 'v23.0.0', 'v24.11.1', process.version])
      expect(nodeVersionProblem(ok), ok).toBeNull();
    for (const old of ['v22.18.9', 'v22.17.9', 'v20.19.5', 'v18.20.0', 'v8.0.0', 'not a version']) {
      expect(nodeVersionProblem(old), old).toBe(
        `Herald needs Node.js ≥ 22.19 (found ${old}). Install a newer Node (the checkout's .nvmrc names one: \`nvm install\`), then run the command again.`,
      );
    }
  });

  it('run as a script with a faked version, says so on one line and exits 1', async () => {
    const check = join(ROOT, 'bin/check-node.js');
    const old = (await run(process.execPath, [check, 'v20.11.1']).catch((e: Failure) => e)) as Failure;
    expect(old.code).toBe(1);
    expect(old.stderr).toBe(`${nodeVersionProblem('v20.11.1')}\n`);
    const fine = await run(process.execPath, [check, 'v22.19.0']);
    expect(fine.stdout).toBe('Node.js v22.19.0 can run Herald.\n');
  });

  it('npm start and the herald command both go through the check', async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: { start: string };
      bin: { herald: string };
    };
    expect(pkg.scripts.start).toMatch(/^node (--\S+ )*bin\/herald\.js serve$/);
    expect(pkg.bin.herald).toBe('bin/herald.js');
  });

  it.skipIf(!existsSync(SYSTEM_NODE))(
    'the real entry under an older system Node prints the one line, no stack trace',
    async () => {
      const { stdout: version } = await run(SYSTEM_NODE, ['--version']);
      const tooOld = nodeVersionProblem(version.trim()) !== null;
      const res = (await run(SYSTEM_NODE, [join(ROOT, 'bin/herald.js'), 'serve'], {
        cwd: ROOT,
        env: { ...process.env, HERALD_DATA_DIR: '/nonexistent/herald-node-check', PORT: 'not a port' },
      }).catch((e: Failure) => e)) as Failure;
      // PORT is invalid on purpose: a Node new enough gets as far as the configuration and stops there.
      expect(res.code).toBe(1);
      if (tooOld) expect(res.stderr).toBe(`${nodeVersionProblem(version.trim())}\n`);
      else expect(res.stderr).toMatch(/PORT/);
      expect(res.stderr).not.toMatch(/ERR_UNKNOWN_FILE_EXTENSION|\n\s+at /);
    },
  );
});

// Start-up sweeps: `herald serve` and `herald worker` start them through startSweeps (src/sweeps.ts).
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.ts';
import { until } from '../helpers/poll.ts';
import { startSweeps } from '../../src/sweeps.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describe('startSweeps', () => {
  it('removes the temp files a crashed upload left behind, and keeps fresh ones', async () => {
    const dir = h.ctx.media.temp.dir;
    mkdirSync(dir, { recursive: true });
    const old = join(dir, 'left-by-a-crash');
    const fresh = join(dir, 'still-uploading');
    writeFileSync(old, 'x');
    writeFileSync(fresh, 'y');
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
    utimesSync(old, twoDaysAgo, twoDaysAgo);
    startSweeps(h.ctx);
    await until(async () => !existsSync(old));
    expect(existsSync(fresh)).toBe(true);
  });
});

// The strict-mode switchboard of the sandbox: POST /_config {"strict": …}, "all", resets, the start option the test
// helper takes from HERALD_SANDBOX_STRICT, and the usage counters DELETE /_state forgets.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseStrictModes, STRICT_MODES } from '../../src/sandbox/index.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox({ strict: [] });
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

const strictOf = async (): Promise<Record<string, boolean>> =>
  ((await (await sb.control('GET', '_config')).json()) as { strict: Record<string, boolean> }).strict;

describe('strict sandbox modes', () => {
  it('are all off by default and named as the strict modes of docs/sandbox.md', async () => {
    expect(Object.keys(await strictOf()).sort()).toEqual([...STRICT_MODES].sort());
    expect(Object.values(await strictOf()).every((v) => v === false)).toBe(true);
    expect(STRICT_MODES).toEqual(
      expect.arrayContaining([
        'tiktok_unaudited',
        'tiktok_privacy_options',
        'tiktok_unverified_domain',
        'youtube_unaudited',
        'youtube_quota',
        'rate_limits',
        'linkedin_no_refresh',
        'public_media_only',
      ]),
    );
  });

  it('turn on one by one, all at once, and off again; an unknown mode is refused', async () => {
    expect((await sb.configure({ strict: { youtube_quota: true } })).strict).toMatchObject({
      youtube_quota: true,
      rate_limits: false,
    });
    const all = (await sb.configure({ strict: 'all' })).strict as Record<string, boolean>;
    expect(Object.values(all).every((v) => v === true)).toBe(true);
    expect((await sb.configure({ strict: { rate_limits: false } })).strict).toMatchObject({
      rate_limits: false,
      youtube_quota: true,
    });
    expect(
      Object.values((await sb.configure({ strict: 'none' })).strict as Record<string, boolean>).every(
        (v) => v === false,
      ),
    ).toBe(true);
    const bad = await sb.control('POST', '_config', { strict: { youtube_lenient: true } });
    expect(bad.status).toBe(400);
  });

  it('go back to the start options on reset', async () => {
    await sb.configure({ strict: 'all', publicHosts: [] });
    await sb.reset();
    expect(Object.values(await strictOf()).every((v) => v === false)).toBe(true);
    const strictStart = await startSandbox({ strict: ['linkedin_no_refresh'] });
    try {
      const read = async () =>
        (await (await strictStart.control('GET', '_config')).json()) as {
          strict: Record<string, boolean>;
          publicHosts: string[];
        };
      await strictStart.configure({ strict: 'none' });
      await strictStart.reset();
      expect((await read()).strict).toMatchObject({ linkedin_no_refresh: true, rate_limits: false });
      // The test host stands in for Herald's public storage.
      expect((await read()).publicHosts).toEqual([new URL(strictStart.publicUrl).host]);
    } finally {
      await strictStart.close();
    }
  });

  it('are read from HERALD_SANDBOX_STRICT: all, none, or a list; a typo is an error, not a lenient run', () => {
    expect(parseStrictModes('all')).toBe('all');
    expect(parseStrictModes(undefined)).toEqual([]);
    expect(parseStrictModes('')).toEqual([]);
    expect(parseStrictModes('youtube_quota, rate_limits')).toEqual(['youtube_quota', 'rate_limits']);
    expect(() => parseStrictModes('youtube_quota,rate_limit')).toThrow(/rate_limit\b/);
  });
});

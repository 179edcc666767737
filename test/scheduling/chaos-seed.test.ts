import { describe, expect, it, vi } from 'vitest';
import { chaosRandom } from '../helpers/chaos-seed.ts';

describe('chaos seeds', () => {
  const quiet = () => vi.spyOn(console, 'log').mockImplementation(() => {});

  it('replays the same choices from a given seed and prints it', () => {
    const log = quiet();
    const a = chaosRandom('x', { CHAOS_SEED: '12345' });
    const b = chaosRandom('x', { CHAOS_SEED: '12345' });
    const draws = (r: typeof a) => Array.from({ length: 50 }, () => r.int(1, 40));
    const first = draws(a);
    expect(draws(b)).toEqual(first);
    expect(new Set(first).size).toBeGreaterThan(10);
    expect(first.every((n) => n >= 1 && n <= 40)).toBe(true);
    expect(log).toHaveBeenCalledWith('x: chaos seed 12345 (replay with CHAOS_SEED=12345)');
    log.mockRestore();
  });

  it('draws a fresh seed when none is given, and refuses one that is not a number', () => {
    const log = quiet();
    const seeds = new Set(Array.from({ length: 5 }, () => chaosRandom('y', {}).seed));
    expect(seeds.size).toBeGreaterThan(1);
    expect(() => chaosRandom('y', { CHAOS_SEED: 'abc' })).toThrow(/CHAOS_SEED must be a non-negative integer/);
    log.mockRestore();
  });
});

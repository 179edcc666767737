// A chaos test's random choices come from one seed, printed when the test starts, so a failing run can
// be replayed exactly: CHAOS_SEED=<seed> npx vitest run <file>. (The choices are where to kill; what the
// processes do around a kill still depends on timing, so a replay aims at the same calls, not the same
// interleaving.)

/** mulberry32: a small, well-known 32-bit PRNG; plenty for picking kill points. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface ChaosRandom {
  seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
}

/** The seed from CHAOS_SEED, or a fresh one; logged with the test's name either way. */
export function chaosRandom(name: string, env: NodeJS.ProcessEnv = process.env): ChaosRandom {
  const given = env.CHAOS_SEED?.trim();
  if (given && !/^\d+$/.test(given)) throw new Error(`CHAOS_SEED must be a non-negative integer, got "${given}"`);
  const seed = given ? Number(given) >>> 0 : Math.floor(Math.random() * 2 ** 32);
  console.log(`${name}: chaos seed ${seed} (replay with CHAOS_SEED=${seed})`);
  const next = mulberry32(seed);
  return { seed, next, int: (min, max) => min + Math.floor(next() * (max - min + 1)) };
}

// `npm run bench [-- section ...]`: prints figures; no pass/fail thresholds (targets are printed beside them).
import { benchFoundation } from './foundation.ts';

const sections: Record<string, () => Promise<void>> = {
  foundation: () => benchFoundation({ seconds: Number(process.env.BENCH_SECONDS ?? 5), databaseUrl: process.env.DATABASE_URL }),
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(sections)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await run();
}

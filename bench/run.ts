// `npm run bench [-- section ...]`: prints figures; no pass/fail thresholds (targets are printed beside them).
import { benchFoundation } from './foundation.ts';
import { benchMedia } from './media.ts';
import { benchPublishing } from './publishing.ts';
import { benchScheduling } from './scheduling.ts';
import { benchSchedulingApi } from './scheduling-api.ts';

const sections: Record<string, () => Promise<void>> = {
  foundation: () => benchFoundation({ seconds: Number(process.env.BENCH_SECONDS ?? 5), databaseUrl: process.env.DATABASE_URL }),
  publishing: () => benchPublishing({ seconds: Number(process.env.BENCH_SECONDS ?? 5) }),
  // The scheduling issue's load benchmark (minutes; scaled by HERALD_BENCH_SCHED_* variables, see bench/scheduling.ts).
  scheduling: () => benchScheduling(),
  'scheduling-api': () => benchSchedulingApi({ seconds: Number(process.env.BENCH_SECONDS ?? 5), burst: Number(process.env.BENCH_SCHEDULE_BURST ?? 200), databaseUrl: process.env.DATABASE_URL }),
  media: () => benchMedia(process.env.BENCH_MEDIA_BYTES ? { sizeBytes: Number(process.env.BENCH_MEDIA_BYTES) } : {}),
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(sections)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await run();
}

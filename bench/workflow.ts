// `npm run bench workflow`: figures of the workflow features, one function per feature (each in its own file).
// BENCH_WORKFLOW=queue,bulk,feeds chooses which run (default: all three).
import { benchBulkAll } from './workflow-bulk.ts';
import { benchFeeds } from './workflow-feeds.ts';
import { benchQueue } from './workflow-queue.ts';

export async function benchWorkflow(): Promise<void> {
  const only = new Set((process.env.BENCH_WORKFLOW ?? 'queue,bulk,feeds').split(',').map((s) => s.trim()));
  if (only.has('queue'))
    await benchQueue({
      posts: Number(process.env.BENCH_QUEUE_POSTS ?? 10_000),
      runs: Number(process.env.BENCH_QUEUE_RUNS ?? 200),
      databaseUrl: process.env.DATABASE_URL,
    });
  // BENCH_BASELINE=/path/to/another/checkout: the bulk import of that checkout first, then this one's.
  if (only.has('bulk'))
    await benchBulkAll({ baseline: process.env.BENCH_BASELINE, databaseUrl: process.env.DATABASE_URL });
  if (only.has('feeds')) await benchFeeds({ databaseUrl: process.env.DATABASE_URL });
}

// `npm run bench workflow`: figures of the workflow features, one function per feature (each in its own file).
import { benchQueue } from './workflow-queue.ts';

export async function benchWorkflow(): Promise<void> {
  await benchQueue({
    posts: Number(process.env.BENCH_QUEUE_POSTS ?? 10_000),
    runs: Number(process.env.BENCH_QUEUE_RUNS ?? 200),
    databaseUrl: process.env.DATABASE_URL,
  });
}

// Scheduling's public face: what the rest of Herald may use. Everything else in this folder is its own.
export { SchedulingService, type SchedulingDeps } from './service.ts';
export {
  BulkService,
  BULK_MAX_BYTES,
  BULK_MAX_ROWS,
  type BulkReport,
  type ImportMode,
  type ImportReport,
} from './bulk/service.ts';
export { EXPORT_MAX_ROWS } from './bulk/export.ts';
export type { BulkFormat } from './bulk/read.ts';
export { ScheduleWorker, type WorkerDeps, type WorkerOptions } from './worker.ts';
export { ScheduleQueue } from './queue.ts';
export { Rounds, type RoundsOptions } from './rounds.ts';
export { ScheduleEntries } from './entries.ts';
export { ScheduledStore, scheduledEntrySchema, STATUSES, type ScheduledRow } from './store.ts';
export { schedulerReadiness } from './readiness.ts';
export { PostStory, timelineSchema, type Timeline } from './story.ts';
export { Reconciler, type ReconcilerOptions, type StuckCounts } from './reconciler.ts';
export { QueueService, DEFAULT_QUEUE, type QueueView, type QueueInput } from './queues.ts';
export { QueueStore } from './queue-store.ts';
export { SLOT_TIME, WEEKDAYS, SlotGrid, type WeeklySlot } from './queue-slots.ts';

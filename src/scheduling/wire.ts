// A queue entry on the wire: its schema and the record built from a scheduled_posts row.
import { z } from 'zod';
import { STATUSES, type ScheduledStatus } from './statuses.ts';
import type { ScheduledRow } from './store-sql.ts';
import { formatted, localIso, timeUntil } from './time.ts';

/** The wire record (contract-gaps §1): times in UTC plus the workspace's zone. */
/** A queue entry on the wire (GET/PATCH /unified/scheduled-posts and the actions on one). */
export const scheduledEntrySchema = z.object({
  scheduled_post_id: z.string(),
  platform: z.string(),
  platform_user_id: z.string().nullable(),
  post_type: z.string(),
  post_data: z
    .looseObject({})
    .describe("The post body stored for this network (the post routes' fields, this network's override only)."),
  scheduled_time: z.string(),
  scheduled_time_local: z.string(),
  scheduled_time_formatted: z.string(),
  status: z.enum(STATUSES as [ScheduledStatus, ...ScheduledStatus[]]),
  time_until_scheduled: z.string().nullable(),
  published_post_id: z.string().nullable(),
  published_post_url: z.string().nullable(),
  error_message: z.string().nullable(),
  attempts: z
    .number()
    .int()
    .describe('How many times publishing was started (retries after a transient failure add one)'),
  created_at: z.string(),
  updated_at: z.string(),
  published_at: z.string().nullable(),
});
export type ScheduledEntry = z.infer<typeof scheduledEntrySchema>;

export function toWire(row: ScheduledRow, timeZone: string, now: Date): ScheduledEntry {
  return {
    scheduled_post_id: row.id,
    platform: row.platform,
    platform_user_id: row.platformUserId,
    post_type: row.postType,
    post_data: row.postData as Record<string, unknown>,
    scheduled_time: row.scheduledTime.toISOString(),
    scheduled_time_local: localIso(row.scheduledTime, timeZone),
    scheduled_time_formatted: formatted(row.scheduledTime, timeZone),
    status: row.status as ScheduledStatus,
    time_until_scheduled: row.status === 'scheduled' ? timeUntil(row.scheduledTime, now) : null,
    published_post_id: row.publishedPostId,
    published_post_url: row.publishedPostUrl,
    error_message: row.errorMessage,
    attempts: row.attempts,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    published_at: row.publishedAt?.toISOString() ?? null,
  };
}

// The scheduled_posts row and the SQL pieces the queue's statements share: the row decoder, id lists, and the
// events an entry's changes write.
import { type SQL, sql } from '../db/orm.ts';
import { rawTable } from '../db/raw.ts';
import { scheduledPosts } from '../db/schema-scheduling.ts';

export type ScheduledRow = typeof scheduledPosts.$inferSelect;

export const table = rawTable(scheduledPosts);
export const rowOf = table.row;
export const idList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
/** An entry's outcome event source (postOutcomeEvents) from a CTE of scheduled_posts rows that just ended. */
export const ENTRY_OUTCOME = (cte: string) =>
  sql`(select workspace_id, post_id, id as scheduled_post_id, platform, post_type, error_message from ${sql.identifier(cte)})`;

export const utc = (col: string) =>
  sql`to_char(${sql.identifier(col)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * `insert into events …` describing each queue entry of `rows` (scheduled_posts rows; `moved` of a transition
 * also has prior_scheduled_time): post.scheduled, post.rescheduled (only when the time changed) or post.deleted.
 */
export function entryEvent(type: 'post.scheduled' | 'post.rescheduled' | 'post.deleted', rows: SQL, now: Date): SQL {
  const data =
    type === 'post.deleted'
      ? sql`jsonb_build_object('post_id', post_id, 'scheduled_post_id', id, 'platforms', jsonb_build_array(platform))`
      : sql`jsonb_build_object('scheduled_post_id', id, 'platform', platform, 'platform_user_id', platform_user_id,
          'post_type', post_type, 'scheduled_time', ${utc('scheduled_time')}${
            type === 'post.rescheduled' ? sql`, 'previous_scheduled_time', ${utc('prior_scheduled_time')}` : sql``
          })`;
  return sql`
    insert into events (workspace_id, type, post_id, platform, data, occurred_at)
    select workspace_id, ${type}, ${type === 'post.deleted' ? sql`post_id` : sql`null::uuid`}, platform, ${data},
      ${now.toISOString()}::timestamptz
    from ${rows} r${type === 'post.rescheduled' ? sql` where scheduled_time <> prior_scheduled_time` : sql``}`;
}

export type { SQL };

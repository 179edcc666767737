// Event and attempt inserts as SQL fragments, for callers that fold them into a statement they already send
// (a data-modifying CTE): the change, its attempt record and its event commit together at no extra round trip.
import { type SQL, sql } from '../db/orm.ts';

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * `insert into events …` of a post's outcome, for each row of `source` (a CTE name or subquery with columns
 * workspace_id, post_id, scheduled_post_id, platform, post_type, error_message). With a ledger post, the event
 * is written only once every live target of the post is published or failed (none left pending or processing),
 * and its type says how it ended: post.published, post.partially_published or post.failed. Without one (a queue
 * entry that failed before any target was written) it is post.failed with the entry's error. `changed`: a CTE of
 * post_targets rows (`returning *`) the same statement updates; they are read in place of their stored versions,
 * which the statement's snapshot still shows.
 */
export function postOutcomeEvents(source: SQL, when: Date, changed?: SQL): SQL {
  const targets = changed
    ? sql`(select * from post_targets s where s.id not in (select id from ${changed}) union all select * from ${changed})`
    : sql`post_targets`;
  return sql`
    insert into events (workspace_id, type, post_id, platform, data, occurred_at)
    select src.workspace_id,
      case when src.post_id is null or agg.published = 0 then 'post.failed'
        when agg.failed = 0 then 'post.published' else 'post.partially_published' end,
      src.post_id,
      coalesce(agg.platform, src.platform),
      jsonb_build_object(
        'post_id', src.post_id,
        'post_type', coalesce(p.post_type, src.post_type),
        'scheduled_post_id', src.scheduled_post_id,
        'error_message', src.error_message,
        'targets', coalesce(agg.targets, '[]'::jsonb)),
      ${at(when)}
    from ${source} src
    left join posts p on p.id = src.post_id
    left join lateral (
      select count(*) filter (where t.state = 'published') as published,
        count(*) filter (where t.state = 'failed') as failed,
        count(*) filter (where t.state not in ('published', 'failed')) as open,
        case when count(distinct t.platform) = 1 then min(t.platform) end as platform,
        jsonb_agg(jsonb_build_object(
          'target_id', t.id, 'platform', t.platform, 'platform_user_id', t.platform_user_id, 'state', t.state,
          'platform_post_id', t.platform_post_id, 'permalink', t.permalink, 'error_code', t.error_code,
          'error_message', t.error_message, 'attempts', t.attempts) order by t.created_at, t.id) as targets
      from ${targets} t where t.post_id = src.post_id and t.state <> 'draft'
    ) agg on true
    where src.post_id is null or (agg.open = 0 and agg.published + agg.failed > 0)`;
}

/** `insert into post_attempts …` for each target row of `targets` (a CTE returning post_targets rows). */
export function attemptInsert(targets: SQL, o: { source: string; when: Date; retryAt?: Date | null }): SQL {
  return sql`
    insert into post_attempts (workspace_id, post_id, target_id, platform, attempt, outcome, error_code, error_message, retry_at, source, at)
    select t.workspace_id, t.post_id, t.id, t.platform, t.attempts, t.state, t.error_code, t.error_message,
      ${o.retryAt ? at(o.retryAt) : null}, ${o.source}, ${at(o.when)}
    from ${targets} t`;
}

/** `insert into events …` of an approval decision for each held draft of `rows` (drafts rows). */
export function approvalEvent(
  type: string,
  rows: SQL,
  when: Date,
  decidedBy: string | null,
  reason: string | null = null,
): SQL {
  return sql`
    insert into events (workspace_id, type, post_id, platform, data, occurred_at)
    select workspace_id, ${type}, null, platform,
      jsonb_build_object('draft_id', id, 'platform', platform, 'post_type', post_type, 'requested_via', requested_via,
        'requested_by', coalesce(requested_by_user::text, 'key:' || requested_by_key::text),
        'decided_by', ${decidedBy}::text, 'reason', ${reason}::text),
      ${at(when)}
    from ${rows} r`;
}

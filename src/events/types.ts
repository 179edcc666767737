// The event types: stable names and the payload (`data`) of each, as zod schemas (the OpenAPI document and the
// TypeScript types come from them). Names never change once released; a payload may gain fields, never lose or
// retype one. docs/events.md shows an example of each.
import { z } from 'zod';

const time = z.string().describe('ISO 8601, UTC');

const targetSummary = z.object({
  target_id: z.uuid(),
  platform: z.string(),
  platform_user_id: z.string().nullable(),
  state: z.string().describe('published | failed | processing | pending'),
  platform_post_id: z.string().nullable(),
  permalink: z.string().nullable(),
  error_code: z.string().nullable(),
  error_message: z.string().nullable().describe("The network's own error text, sanitized"),
  attempts: z.number().int(),
});

const postOutcome = z.object({
  post_id: z.uuid().nullable().describe('The ledger post; null for a queue entry that failed before it had one'),
  post_type: z.string(),
  scheduled_post_id: z.uuid().nullable().describe('The queue entry behind it, for a scheduled post'),
  error_message: z.string().nullable().describe("The queue entry's error, when it failed as a whole"),
  targets: z.array(targetSummary),
});

const scheduled = z.object({
  scheduled_post_id: z.uuid(),
  platform: z.string(),
  platform_user_id: z.string().nullable(),
  post_type: z.string(),
  scheduled_time: time,
});

const approval = z.object({
  draft_id: z.uuid(),
  platform: z.string(),
  post_type: z.string(),
  requested_via: z
    .string()
    .nullable()
    .describe(
      'mcp | gpt | agent: the tool surface that asked; feed: a followed feed; rest: a member or program sent it for approval',
    ),
  requested_by: z
    .string()
    .nullable()
    .describe("Who asked: the member's user id, or key:<id> for an API key; null when not known"),
  decided_by: z.string().nullable().describe('The member who decided; null for a request'),
  reason: z.string().nullable().describe('On post.rejected: the reason the member gave, if any'),
});

const account = z.object({
  platform: z.string(),
  platform_user_id: z.string(),
  display_name: z.string().nullable(),
  reason: z.string().nullable().describe("Why: a needs-reconnect's network error, a disconnect's origin"),
  expires_at: time.nullable().describe("The access token's expiry, when known"),
});

export const EVENT_DATA = {
  'post.published': postOutcome,
  'post.partially_published': postOutcome,
  'post.failed': postOutcome,
  'post.scheduled': scheduled,
  'post.rescheduled': scheduled.extend({ previous_scheduled_time: time }),
  'post.deleted': z.object({
    post_id: z.uuid().nullable().describe('The ledger post deleted at the networks; null for a queue entry'),
    scheduled_post_id: z.uuid().nullable(),
    platforms: z.array(z.string()),
    platform_post_id: z
      .string()
      .nullable()
      .optional()
      .describe("The network's id of the post deleted there (absent for a cancelled queue entry)"),
  }),
  'post.approval_requested': approval,
  'post.approved': approval,
  'post.rejected': approval,
  'post.stuck': z.object({
    post_id: z.uuid().nullable(),
    scheduled_post_id: z.uuid().nullable(),
    target_id: z.uuid().nullable(),
    platform: z.string(),
    reason: z.string().describe('What the reconciler found'),
    action: z.enum(['resumed', 'failed']),
  }),
  'account.connected': account,
  'account.needs_reconnect': account,
  'account.token_expiring': account,
  'account.disconnected': account,
  'comment.received': z.object({
    platform: z.string(),
    platform_post_id: z.string(),
    comment_id: z.string(),
    author: z.string().nullable(),
    text: z.string(),
    created_at: time.nullable(),
  }),
  'media.processed': z.object({
    media_id: z.uuid(),
    kind: z.string(),
    status: z.string().describe('ready | failed'),
    error: z.string().nullable(),
  }),
  'credits.low': z.object({
    credit_type: z.string(),
    used: z.number().int(),
    limit: z.number().int(),
    remaining: z.number().int(),
    period_start: time,
  }),
  'webhook.disabled': z.object({ webhook_id: z.uuid(), url: z.string(), reason: z.string() }),
  'feed.failed': z.object({
    feed_id: z.uuid(),
    url: z.string().describe("The feed's URL without its query (which may hold a private feed's token)"),
    error: z.string().describe('Why the poll failed'),
    last_success_at: time.nullable().describe('The last successful poll, if any'),
  }),
} as const;

export type EventType = keyof typeof EVENT_DATA;
export const EVENT_TYPES = Object.keys(EVENT_DATA) as [EventType, ...EventType[]];
export const isEventType = (s: string): s is EventType => Object.hasOwn(EVENT_DATA, s);

export type EventPayloads = { [T in EventType]: z.infer<(typeof EVENT_DATA)[T]> };
export type TargetSummary = z.infer<typeof targetSummary>;
export type PostOutcomeData = z.infer<typeof postOutcome>;

/** An event as GET /events returns it (and webhooks deliver it). */
export interface WireEvent<T extends EventType = EventType> {
  id: string;
  type: T;
  workspace_id: string;
  occurred_at: string;
  post_id: string | null;
  platform: string | null;
  data: EventPayloads[T];
}

/** The wire shape of one event, per type (the OpenAPI document's union). */
export const eventSchema = z.union(
  EVENT_TYPES.map((t) =>
    z.object({
      id: z.uuid().describe("The event's stable id"),
      type: z.literal(t),
      workspace_id: z.uuid(),
      occurred_at: time,
      post_id: z.uuid().nullable().describe('The ledger post concerned, if any'),
      platform: z.string().nullable().describe('The network concerned, if any'),
      data: EVENT_DATA[t],
    }),
  ) as unknown as [z.ZodTypeAny, z.ZodTypeAny, ...z.ZodTypeAny[]],
);

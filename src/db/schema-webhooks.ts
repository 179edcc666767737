// Webhooks: a workspace's endpoints (URL, the event types it wants, its signing secrets sealed like platform tokens),
// one delivery per event and endpoint (its id is the `webhook-id` a receiver sees, the same on every retry), and
// each attempt of a delivery.
import { pgCore, sql } from './orm.ts';
import { users, workspaces } from './schema.ts';

const { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } = pgCore;
const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    /** The event types it receives; empty: every type. */
    eventTypes: jsonb('event_types').$type<string[]>().notNull().default([]),
    enabled: boolean('enabled').notNull().default(true),
    /** Why Herald disabled it (410 Gone, failing for days); null when enabled or disabled by a person. */
    disabledReason: text('disabled_reason'),
    /** The networks of the API key that created it ('' = every network): it receives only their events. */
    scope: text('scope').notNull().default(''),
    /** The signing secret (`whsec_…`), sealed with the row's id as associated data. */
    secret: text('secret').notNull(),
    /** The secret before the last rotation, still signing until `previous_secret_expires_at`. */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: tz('previous_secret_expires_at'),
    /** The first failed attempt since the last success: failing for days disables the endpoint. */
    failingSince: tz('failing_since'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_ws_idx').on(t.workspaceId)],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    /** The `webhook-id` header: one per event and endpoint, kept across retries and redeliveries. */
    id: text('id').primaryKey(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** The outbox event it carries; null for a test delivery. */
    eventId: text('event_id'),
    eventType: text('event_type').notNull(),
    /** The exact body sent (and signed) on every attempt. */
    body: text('body').notNull(),
    /** pending | delivering | succeeded | failed */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: tz('next_attempt_at'),
    /** A worker's claim while it sends; past it, another worker may take the delivery again. */
    leaseUntil: tz('lease_until'),
    lastStatusCode: integer('last_status_code'),
    lastResponse: text('last_response'),
    lastError: text('last_error'),
    lastDurationMs: integer('last_duration_ms'),
    lastAttemptAt: tz('last_attempt_at'),
    deliveredAt: tz('delivered_at'),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_endpoint_idx').on(t.endpointId, t.eventId),
    index('webhook_deliveries_endpoint_created_idx').on(t.endpointId, t.createdAt),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} in ('pending', 'delivering')`),
  ],
);

/** Every attempt of a delivery, for the delivery log. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    at: tz('at').notNull(),
    statusCode: integer('status_code'),
    response: text('response'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    succeeded: boolean('succeeded').notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attempt)],
);

// The OAuth authorization server's storage (src/oauth/): what oidc-provider persists (clients registered
// dynamically, interactions, grants, sessions, authorization codes, refresh tokens) and the grants revoked.
import { pgCore } from './orm.ts';

const { index, jsonb, pgTable, primaryKey, text, timestamp } = pgCore;
const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * One row per oidc-provider entity. `id` is the entity's id, except for authorization codes, refresh tokens
 * and the other bearer values, where it is the SHA-256 of the value: the table never holds a usable code or token.
 */
export const oauthEntities = pgTable(
  'oauth_entities',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: text('grant_id'),
    uid: text('uid'),
    expiresAt: tz('expires_at'),
    consumedAt: tz('consumed_at'),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('oauth_entities_grant_idx').on(t.grantId),
    index('oauth_entities_uid_idx').on(t.uid),
    index('oauth_entities_expires_idx').on(t.expiresAt),
  ],
);

/** Grants revoked (RFC 7009, disconnect_gpt_connector): every instance refuses their access tokens within a second. */
export const oauthRevokedGrants = pgTable(
  'oauth_revoked_grants',
  {
    grantId: text('grant_id').primaryKey(),
    revokedAt: tz('revoked_at').notNull().defaultNow(),
    /** When the last token of the grant would have expired anyway; the row can go after that. */
    expiresAt: tz('expires_at').notNull(),
  },
  (t) => [index('oauth_revoked_grants_expires_idx').on(t.expiresAt)],
);

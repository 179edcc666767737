// The plan's meters on the settings page, from GET /billing/usage: what was used of each limited quantity this
// period. A null limit is unlimited (no meter, only the count).

export interface UsageLike {
  limits: {
    posts_per_month: number | null;
    ai_credits_per_month: number | null;
    scheduled_posts_per_month: number | null;
    storage_bytes: number | null;
    max_connected_accounts: number | null;
  };
  used_this_period: { posts: number; ai_credits: number; scheduled_posts: number };
  usage_counts: { connected_accounts: number; storage_bytes: number; storage_reserved_bytes: number };
}

export type MeterKey = 'posts' | 'ai_credits' | 'scheduled_posts' | 'storage' | 'connected_accounts';

export interface Meter {
  key: MeterKey;
  used: number;
  limit: number | null;
  /** 0–1, null when unlimited */
  fraction: number | null;
}

const meter = (key: MeterKey, used: number, limit: number | null): Meter => ({
  key,
  used,
  limit,
  fraction: limit === null ? null : limit <= 0 ? 1 : Math.min(1, used / limit),
});

export function meters(u: UsageLike): Meter[] {
  return [
    meter('posts', u.used_this_period.posts, u.limits.posts_per_month),
    meter('ai_credits', u.used_this_period.ai_credits, u.limits.ai_credits_per_month),
    meter('scheduled_posts', u.used_this_period.scheduled_posts, u.limits.scheduled_posts_per_month),
    meter('storage', u.usage_counts.storage_bytes + u.usage_counts.storage_reserved_bytes, u.limits.storage_bytes),
    meter('connected_accounts', u.usage_counts.connected_accounts, u.limits.max_connected_accounts),
  ];
}

/** IANA time zones the browser knows, with the current one first if it is missing from the list. */
export function timeZones(current: string, known: readonly string[]): string[] {
  return known.includes(current) ? [...known] : [current, ...known];
}

import { describe, expect, it } from 'vitest';
import { meters, timeZones } from '../../web/src/pages/settings/usage.ts';

describe('settings usage meters', () => {
  it('gives each quantity its share of the limit; unlimited has none', () => {
    const m = meters({
      limits: {
        posts_per_month: null,
        ai_credits_per_month: 100,
        scheduled_posts_per_month: 0,
        storage_bytes: 1000,
        max_connected_accounts: 5,
      },
      used_this_period: { posts: 12, ai_credits: 25, scheduled_posts: 0 },
      usage_counts: { connected_accounts: 7, storage_bytes: 300, storage_reserved_bytes: 200 },
    });
    expect(m.map((x) => [x.key, x.used, x.fraction])).toEqual([
      ['posts', 12, null],
      ['ai_credits', 25, 0.25],
      ['scheduled_posts', 0, 1],
      ['storage', 500, 0.5],
      ['connected_accounts', 7, 1],
    ]);
  });

  it('keeps a time zone the browser does not list', () => {
    expect(timeZones('UTC', ['Europe/Paris'])).toEqual(['UTC', 'Europe/Paris']);
    expect(timeZones('Europe/Paris', ['Europe/Paris'])).toEqual(['Europe/Paris']);
  });
});

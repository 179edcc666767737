// Bulk export of posts published at once (no queue entry): GET /unified/bulk/export?status=published lists them at
// their time of publication beside the queue entries that went out, and a round trip schedules them again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../connections/helpers.ts';
import { asUser, createHarness, type Harness } from '../helpers/harness.ts';
import { HOUR } from '../scheduling/helpers.ts';
import { proUser, scheduledOf, send } from './helpers.ts';

// The real time, moved back by `shift` when a test needs a publication time to be in the future again.
let shift = 0;
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ sandbox: true, clock: () => new Date(Date.now() - shift) });
});
afterAll(async () => h?.close());

describe('GET /unified/bulk/export?status=published', () => {
  it('includes posts published at once, at their time of publication, with their first comment; round trip', async () => {
    const a = await proUser(h);
    await connect(h, a, 'bluesky');
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(a),
      payload: { platforms: ['bluesky'], default_text: 'Out at once', first_comment: 'And a comment' },
    });
    expect(res.statusCode, res.body).toBe(200);

    const exported = await h.req({
      method: 'GET',
      url: '/unified/bulk/export?status=published&format=json',
      headers: asUser(a),
    });
    expect(exported.statusCode, exported.body).toBe(200);
    const rows = exported.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toEqual([
      { networks: 'bluesky', text: 'Out at once', first_comment: 'And a comment', time: expect.any(String) },
    ]);
    const publishedAt = new Date(rows[0].time).getTime();
    expect(Math.abs(publishedAt - Date.now())).toBeLessThan(HOUR);
    // Scheduled posts are not published ones, and the default export (scheduled and published) has it too.
    const all = await h.req({ method: 'GET', url: '/unified/bulk/export?format=json', headers: asUser(a) });
    expect(
      all.body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).text),
    ).toEqual(['Out at once']);
    const scheduledOnly = await h.req({
      method: 'GET',
      url: '/unified/bulk/export?status=scheduled&format=json',
      headers: asUser(a),
    });
    expect(scheduledOnly.body).toBe('');

    // Imported into another workspace while its time is still ahead: the same post, scheduled at that time.
    shift = 2 * HOUR;
    try {
      const csv = await h.req({ method: 'GET', url: '/unified/bulk/export?status=published', headers: asUser(a) });
      const b = await proUser(h);
      const imported = await send(h, b, 'import', csv.body);
      expect(imported.statusCode, imported.body).toBe(200);
      const entries = await scheduledOf(h, b);
      expect(entries).toMatchObject([
        {
          platform: 'bluesky',
          post_type: 'text',
          post_data: { default_text: 'Out at once', first_comment: 'And a comment' },
        },
      ]);
      expect(new Date(entries[0]!.scheduled_time).getTime()).toBe(publishedAt);
    } finally {
      shift = 0;
    }
  });
});

// Mail notifications: per-member preferences with defaults (failures on, successes off), one digest per member per
// HERALD_NOTIFY_DIGEST_MINUTES with links to the web app, and a signed unsubscribe link that works without signing in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { TestClock } from '../scheduling/helpers.ts';
import { recordEvent } from '../../src/events/index.ts';
import { mailOutbox } from '../../src/db/schema.ts';
import { and, eq } from '../../src/db/orm.ts';

const clock = new TestClock('2026-11-20T10:00:00Z');
let h: Harness;
let u: TestUser;
const POST = '11111111-1111-4111-8111-111111111111';

beforeAll(async () => {
  h = await createHarness({ clock: clock.fn, env: { HERALD_NOTIFY_DIGEST_MINUTES: '15' } });
  u = await h.signup();
});
afterAll(async () => h?.close());

const outcome = (type: 'post.failed' | 'post.published') =>
  h.ctx.database.db.transaction((tx) =>
    recordEvent(tx, u.workspaceId, type, {
      post_id: POST,
      post_type: 'text',
      scheduled_post_id: null,
      error_message: null,
      targets: [
        {
          target_id: POST,
          platform: 'linkedin',
          platform_user_id: null,
          state: type === 'post.failed' ? 'failed' : 'published',
          platform_post_id: null,
          permalink: null,
          error_code: null,
          error_message: type === 'post.failed' ? 'LinkedIn: the network answered 500' : null,
          attempts: 1,
        },
      ],
    }),
  );
const digests = () =>
  h.ctx.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, u.email), eq(mailOutbox.kind, 'notification_digest')));

describe('notifications', () => {
  it('defaults: failures on, successes off; a member changes them', async () => {
    const res = await h.req({ method: 'GET', url: '/notifications/preferences', headers: asUser(u) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().preferences).toMatchObject({
      'post.failed': true,
      'account.needs_reconnect': true,
      'post.published': false,
    });
    expect(res.json().digest_minutes).toBe(15);
    const key = await h.createKey(u, 'full');
    const byKey = await h.req({
      method: 'GET',
      url: '/notifications/preferences',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(byKey.statusCode).toBe(403);
    const bad = await h.req({
      method: 'PUT',
      url: '/notifications/preferences',
      headers: asUser(u),
      payload: { preferences: { 'post.exploded': true } },
    });
    expect(bad.statusCode).toBe(422);
  });

  it('one digest per interval with the chosen events, links, and an unsubscribe link that needs no sign-in', async () => {
    // First round: the member starts from now, not from the history.
    await outcome('post.failed');
    await h.ctx.notifier.run();
    expect(await digests()).toHaveLength(0);
    await outcome('post.failed');
    await outcome('post.published'); // off by default
    expect(await h.ctx.notifier.run()).toBe(1);
    const [mail] = await digests();
    expect(mail!.subject).toMatch(/1 update/);
    expect(mail!.body).toContain('LinkedIn: the network answered 500');
    expect(mail!.body).toContain(`${h.config.publicUrl}/posts?post=${POST}`);
    // Within the interval: no second mail, the events wait for the next digest.
    await outcome('post.failed');
    clock.advance(5 * 60_000);
    expect(await h.ctx.notifier.run()).toBe(0);
    clock.advance(11 * 60_000);
    expect(await h.ctx.notifier.run()).toBe(1);
    expect(await digests()).toHaveLength(2);

    const link = /Stop mails about post\.failed: (\S+)/.exec(mail!.body)![1]!;
    const url = new URL(link);
    const forged = await h.req({ method: 'GET', url: `${url.pathname}${url.search}x` });
    expect(forged.statusCode).toBe(400);
    const res = await h.req({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(res.statusCode, res.body).toBe(200);
    const prefs = await h.req({ method: 'GET', url: '/notifications/preferences', headers: asUser(u) });
    expect(prefs.json().preferences['post.failed']).toBe(false);
    await outcome('post.failed');
    clock.advance(20 * 60_000);
    expect(await h.ctx.notifier.run()).toBe(0);
  });
});

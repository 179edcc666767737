import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, asUser, type Harness } from '../helpers/harness.ts';
import { securityMatrix } from '../helpers/security-matrix.ts';
import { connect } from '../connections/helpers.ts';
import { scriptedAdapters, type Script } from '../publishing/helpers.ts';
import { HOUR, TestClock, action, cancel, get, patch, schedule } from './helpers.ts';

const script: Script = { calls: [], behaviour: {} };
const clock = new TestClock('2026-11-20T10:00:00Z');
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ sandbox: true, clock: clock.fn, overrides: { adapters: scriptedAdapters(script) } });
});
afterAll(async () => h?.close());

const inHours = (n: number) => new Date(clock.now.getTime() + n * HOUR).toISOString();
const usage = async (u: Parameters<typeof asUser>[0]) =>
  (await h.req({ method: 'GET', url: '/billing/usage', headers: asUser(u) })).json().used_this_period;

describe('scheduling through the post routes', () => {
  it('schedules instead of publishing, spends one scheduled-post credit, and answers with the ids', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    script.calls.length = 0;
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: { platforms: ['bluesky'], default_text: 'Later', scheduled_time: inHours(2) },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      message: 'Scheduled',
      scheduled: [{ platform: 'bluesky', scheduled_post_id: expect.any(String), scheduled_time: inHours(2) }],
    });
    expect(script.calls).toHaveLength(0);
    expect((await usage(u)).scheduled_posts).toBe(1);
    expect((await usage(u)).posts).toBe(0);
    const row = await get(h, u, body.scheduled[0].scheduled_post_id);
    expect(row).toMatchObject({
      status: 'scheduled',
      platform: 'bluesky',
      post_type: 'text',
      time_until_scheduled: 'in 2 hours',
      post_data: { default_text: 'Later', platforms: ['bluesky'] },
    });
    expect(row!.post_data).not.toHaveProperty('scheduled_time');
  });

  it('mixes a network override schedule with publishing now and drafts', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    await connect(h, u, 'threads');
    script.calls.length = 0;
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: {
        platforms: ['bluesky', 'threads', 'linkedin'],
        draft_platforms: ['linkedin'],
        default_text: 'Mixed',
        threads: { scheduled_time: inHours(1) },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.scheduled).toEqual([
      { platform: 'threads', scheduled_post_id: expect.any(String), scheduled_time: inHours(1) },
    ]);
    expect(body.drafts).toEqual([{ platform: 'linkedin', draft_id: expect.any(String), status: 'draft' }]);
    expect(body.results).toMatchObject([{ platform: 'bluesky', success: true }]);
    expect(script.calls.map((c) => c.platform)).toEqual(['bluesky']);
  });

  it('refuses a time without an offset, in the past, or unparsable with 422', async () => {
    const u = await h.signup();
    for (const t of ['2026-11-20T12:00:00', '2026-11-20T09:00:00Z', 'tomorrow', '2026-13-45T99:00:00Z']) {
      const res = await h.req({
        method: 'POST',
        url: '/unified/post/text',
        headers: asUser(u),
        payload: { platforms: ['bluesky'], default_text: 'x', scheduled_time: t },
      });
      expect(res.statusCode, `${t}: ${res.body}`).toBe(422);
    }
    const offset = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: { platforms: ['bluesky'], default_text: 'x', scheduled_time: '2026-11-20T13:30:00+02:00' },
    });
    expect(offset.json().scheduled[0].scheduled_time).toBe('2026-11-20T11:30:00.000Z');
    expect((await usage(u)).scheduled_posts).toBe(1);
  });

  it('needs scheduling_enabled and scheduled-post credits', async () => {
    const u = await h.signup();
    await h.setPlan(u.workspaceId, 'free');
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: { platforms: ['bluesky'], default_text: 'x', scheduled_time: inHours(1) },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toMatchObject({ error: 'plan_required', feature: 'scheduling_enabled' });
  });

  it('answers 402 when the scheduled-post credits are spent, and schedules nothing', async () => {
    const u = await h.signup();
    await h.setPlan(u.workspaceId, 'starter');
    await h.ctx.credits.spend({
      workspaceId: u.workspaceId,
      planId: 'starter',
      type: 'scheduled_posts',
      amount: 99,
      reason: 'test',
    });
    const two = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: { platforms: ['bluesky', 'threads'], default_text: 'x', scheduled_time: inHours(1) },
    });
    expect(two.statusCode, two.body).toBe(402);
    expect(
      (await h.req({ method: 'GET', url: '/unified/scheduled-posts', headers: asUser(u) })).json().data.total,
    ).toBe(0);
    const one = await schedule(h, u, { platforms: ['bluesky'], default_text: 'x', scheduled_time: inHours(1) });
    expect(one.statusCode).toBe(200);
    expect(
      (await schedule(h, u, { platforms: ['bluesky'], default_text: 'y', scheduled_time: inHours(1) })).statusCode,
    ).toBe(402);
  });
});

describe('/unified/scheduled-posts', () => {
  it('creates, lists with filters and renders times in the workspace time zone', async () => {
    const u = await h.signup();
    await h.ctx.database.db.execute(
      `update workspaces set time_zone = 'Europe/Paris' where id = '${u.workspaceId}'` as never,
    );
    const res = await schedule(h, u, {
      platforms: ['bluesky', 'threads'],
      default_text: 'Queued',
      scheduled_time: '2026-11-21T08:00:00Z',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.total).toBe(2);
    const list = await h.req({ method: 'GET', url: '/unified/scheduled-posts?platform=threads', headers: asUser(u) });
    const body = list.json();
    expect(body).toMatchObject({
      success: true,
      error: null,
      data: { total: 1, platform: 'threads', platform_user_id: null, status: null },
    });
    expect(body.data.scheduled_posts[0]).toMatchObject({
      platform: 'threads',
      status: 'scheduled',
      scheduled_time: '2026-11-21T08:00:00.000Z',
      scheduled_time_local: '2026-11-21T09:00:00+01:00',
      scheduled_time_formatted: expect.stringContaining('9:00 AM'),
      time_until_scheduled: 'in 22 hours',
      published_post_id: null,
      error_message: null,
      attempts: 0,
    });
    const none = await h.req({ method: 'GET', url: '/unified/scheduled-posts?status=published', headers: asUser(u) });
    expect(none.json().data.total).toBe(0);
    const bad = await h.req({ method: 'GET', url: '/unified/scheduled-posts?limit=101', headers: asUser(u) });
    expect(bad.statusCode).toBe(422);
  });

  it('refuses draft flags and a missing scheduled_time with 422', async () => {
    const u = await h.signup();
    expect(
      (await schedule(h, u, { platforms: ['bluesky'], default_text: 'x', scheduled_time: inHours(1), draft: true }))
        .statusCode,
    ).toBe(422);
    expect(
      (
        await schedule(h, u, {
          platforms: ['bluesky'],
          default_text: 'x',
          scheduled_time: inHours(1),
          draft_platforms: ['bluesky'],
        })
      ).statusCode,
    ).toBe(422);
    expect((await schedule(h, u, { platforms: ['bluesky'], default_text: 'x' })).statusCode).toBe(422);
  });

  it('answers 404 for an unknown id and for another workspace’s entry', async () => {
    const u = await h.signup();
    const other = await h.signup();
    const id = (
      await schedule(h, other, { platforms: ['bluesky'], default_text: 'x', scheduled_time: inHours(1) })
    ).json().scheduled[0].scheduled_post_id;
    expect((await cancel(h, u, id)).statusCode).toBe(404);
    expect((await cancel(h, u, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });
});

describe('status transitions', () => {
  it('cancel (DELETE and PATCH status) from scheduled; illegal actions afterwards are 409 with the reason', async () => {
    const u = await h.signup();
    const [a, b] = (
      await schedule(h, u, { platforms: ['bluesky', 'threads'], default_text: 'x', scheduled_time: inHours(3) })
    )
      .json()
      .scheduled.map((s: { scheduled_post_id: string }) => s.scheduled_post_id);
    expect((await cancel(h, u, a)).json()).toMatchObject({
      success: true,
      data: { scheduled_posts: [{ status: 'cancelled' }] },
    });
    expect((await usage(u)).scheduled_posts).toBe(1);
    expect((await patch(h, u, b, { status: 'cancelled' })).json().data.scheduled_posts[0].status).toBe('cancelled');
    for (const res of [
      await cancel(h, u, a),
      await action(h, u, a, 'publish-now'),
      await action(h, u, a, 'move-to-draft'),
      await patch(h, u, a, { scheduled_time: inHours(5) }),
    ]) {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().detail).toMatch(/is 'cancelled' and cannot be .* allowed only from/);
    }
    const events = await h.ctx.scheduling.store.events(a);
    expect(events.map((e) => [e.fromStatus, e.toStatus])).toEqual([
      [null, 'scheduled'],
      ['scheduled', 'cancelled'],
    ]);
  });

  it('reschedules and edits from scheduled, validating the time and the content', async () => {
    const u = await h.signup();
    const id = (await schedule(h, u, { platforms: ['bluesky'], default_text: 'x', scheduled_time: inHours(3) })).json()
      .scheduled[0].scheduled_post_id;
    const res = await patch(h, u, id, { scheduled_time: inHours(5), post_data: { default_text: 'edited' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.scheduled_posts[0]).toMatchObject({
      scheduled_time: inHours(5),
      post_data: { default_text: 'edited' },
    });
    expect((await patch(h, u, id, { scheduled_time: '2026-11-20T18:00:00' })).statusCode).toBe(422);
    expect((await patch(h, u, id, { post_data: { default_text: 'x'.repeat(301) } })).statusCode).toBe(422);
    expect((await patch(h, u, id, { status: 'published' })).statusCode).toBe(422);
    const events = await h.ctx.scheduling.store.events(id);
    expect(events.at(-1)!.reason).toMatch(/rescheduled to .*content edited/);
  });

  it('move-to-draft makes a draft and cancels the entry', async () => {
    const u = await h.signup();
    const id = (
      await schedule(h, u, { platforms: ['bluesky'], default_text: 'to draft', scheduled_time: inHours(3) })
    ).json().scheduled[0].scheduled_post_id;
    const res = await action(h, u, id, 'move-to-draft');
    expect(res.statusCode, res.body).toBe(200);
    const draftId = res.json().data.draft_id;
    const draft = await h.req({ method: 'GET', url: `/unified/drafts/${draftId}`, headers: asUser(u) });
    expect(draft.json().data).toMatchObject({ platform: 'bluesky', default_text: 'to draft' });
    expect((await get(h, u, id))!.status).toBe('cancelled');
  });

  it('publish-now publishes through the ledger; published entries cannot be cancelled, edited or republished', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    script.calls.length = 0;
    const id = (
      await schedule(h, u, { platforms: ['bluesky'], default_text: 'now please', scheduled_time: inHours(3) })
    ).json().scheduled[0].scheduled_post_id;
    const res = await action(h, u, id, 'publish-now');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.scheduled_posts[0]).toMatchObject({
      status: 'published',
      published_post_id: expect.stringMatching(/^bluesky-/),
      published_at: clock.now.toISOString(),
    });
    expect(script.calls).toHaveLength(1);
    expect((await usage(u)).posts).toBe(1);
    for (const r of [
      await cancel(h, u, id),
      await action(h, u, id, 'publish-now'),
      await patch(h, u, id, { scheduled_time: inHours(4) }),
      await action(h, u, id, 'move-to-draft'),
    ])
      expect(r.statusCode).toBe(409);
    const events = await h.ctx.scheduling.store.events(id);
    expect(events.map((e) => e.toStatus)).toEqual(['scheduled', 'publishing', 'published']);
  });

  it('a failed entry can be retried with publish-now, rescheduled, or cancelled', async () => {
    const u = await h.signup();
    const id = (
      await schedule(h, u, { platforms: ['bluesky'], default_text: 'not connected', scheduled_time: inHours(3) })
    ).json().scheduled[0].scheduled_post_id;
    const res = await action(h, u, id, 'publish-now');
    expect(res.json()).toMatchObject({
      success: false,
      data: { scheduled_posts: [{ status: 'failed', error_message: expect.stringContaining('not connected') }] },
    });
    expect((await patch(h, u, id, { scheduled_time: inHours(4) })).json().data.scheduled_posts[0].status).toBe(
      'scheduled',
    );
    await action(h, u, id, 'publish-now');
    expect((await cancel(h, u, id)).json().data.scheduled_posts[0].status).toBe('cancelled');
  });
});

describe('retrying a failed entry', () => {
  it('after connecting the network, publish-now starts over and publishes once, charging one post credit', async () => {
    const u = await h.signup();
    script.calls.length = 0;
    const id = (
      await schedule(h, u, { platforms: ['threads'], default_text: 'connect first', scheduled_time: inHours(3) })
    ).json().scheduled[0].scheduled_post_id;
    expect((await action(h, u, id, 'publish-now')).json().data.scheduled_posts[0].status).toBe('failed');
    await connect(h, u, 'threads');
    const res = await action(h, u, id, 'publish-now');
    expect(res.json().data.scheduled_posts[0]).toMatchObject({ status: 'published', error_message: null });
    expect(script.calls.filter((c) => c.platform === 'threads')).toHaveLength(1);
    expect((await usage(u)).posts).toBe(1);
  });
});

describe('security', () => {
  const created = async (u: Parameters<typeof asUser>[0]) =>
    (await schedule(h, u, { platforms: ['threads'], default_text: 'x', scheduled_time: inHours(9) })).json()
      .scheduled[0].scheduled_post_id as string;
  // The catalogue's entries (test/helpers/security-routes.ts) run in test/foundation/security-matrix.test.ts; this is
  // the posting route's scheduled variant.
  securityMatrix(() => h, {
    method: 'POST',
    url: '/unified/post/text',
    payload: { platforms: ['threads'], default_text: 'x', scheduled_time: '2027-01-01T00:00:00Z' },
    platform: 'threads',
    feature: 'publish_enabled',
  });

  it('a key scoped to another network cannot see or act on a threads entry', async () => {
    const u = await h.signup();
    const id = await created(u);
    const key = await h.createKey(u, 'bluesky');
    const list = await h.req({ method: 'GET', url: '/unified/scheduled-posts', headers: { 'x-api-key': key } });
    expect(list.json().data.total).toBe(0);
    for (const res of [
      await h.req({ method: 'DELETE', url: `/unified/scheduled-posts/${id}`, headers: { 'x-api-key': key } }),
      await h.req({ method: 'POST', url: `/unified/scheduled-posts/${id}/publish-now`, headers: { 'x-api-key': key } }),
      await h.req({ method: 'GET', url: '/unified/scheduled-posts?platform=threads', headers: { 'x-api-key': key } }),
    ])
      expect(res.statusCode).toBe(403);
  });
});

describe('scheduling a draft', () => {
  it('POST /unified/drafts/{id}/schedule turns the draft into a scheduled post', async () => {
    const u = await h.signup();
    const saved = await h.req({
      method: 'POST',
      url: '/unified/drafts',
      headers: asUser(u),
      payload: { post_type: 'text', platforms: ['threads'], default_text: 'from a draft' },
    });
    const draftId = saved.json().drafts[0].draft_id;
    expect(
      (
        await h.req({
          method: 'POST',
          url: `/unified/drafts/${draftId}/schedule`,
          headers: asUser(u),
          payload: { scheduled_time: '2026-11-20T12:00:00' },
        })
      ).statusCode,
    ).toBe(422);
    const res = await h.req({
      method: 'POST',
      url: `/unified/drafts/${draftId}/schedule`,
      headers: asUser(u),
      payload: { scheduled_time: inHours(6) },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      draft_id: draftId,
      scheduled: [{ platform: 'threads', scheduled_time: inHours(6) }],
    });
    expect((await get(h, u, res.json().scheduled[0].scheduled_post_id))!.post_data).toMatchObject({
      default_text: 'from a draft',
    });
    expect((await h.req({ method: 'GET', url: `/unified/drafts/${draftId}`, headers: asUser(u) })).statusCode).toBe(
      404,
    );
  });
});

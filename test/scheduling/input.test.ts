// Bad input on the scheduling routes: impossible dates everywhere a date-time is taken, and PATCH
// post_data checked with the post routes' schemas (unknown keys dropped, sizes capped, nothing-to-do 422).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, asUser, type Harness, type TestUser } from '../helpers/harness.ts';
import { imageMedia } from '../publishing/helpers.ts';
import { HOUR, TestClock, get, patch, schedule } from './helpers.ts';

// Nothing is published here: no sandbox, no network behind the adapters.
const clock = new TestClock('2026-11-20T10:00:00Z');
const inHours = (n: number) => new Date(clock.now.getTime() + n * HOUR).toISOString();
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ clock: clock.fn });
});
afterAll(async () => h?.close());
const IMPOSSIBLE = '2027-02-30T10:00:00Z';
const detail = (res: { json(): { detail: unknown } }) =>
  res.json().detail as { loc: unknown[]; msg: string; type: string }[];

async function entry(u: TestUser, payload: Record<string, unknown> = {}): Promise<string> {
  const res = await schedule(h, u, {
    platforms: ['bluesky'],
    default_text: 'stored text',
    scheduled_time: inHours(3),
    ...payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().scheduled[0].scheduled_post_id;
}

describe('dates that do not exist', () => {
  it('are 422 with field-level detail on create, PATCH and scheduling a draft; nothing is stored as March 2', async () => {
    const u = await h.signup();
    const created = await schedule(h, u, { platforms: ['bluesky'], default_text: 'x', scheduled_time: IMPOSSIBLE });
    expect(created.statusCode).toBe(422);
    expect(detail(created).map((d) => d.loc)).toEqual([['body', 'scheduled_time']]);
    const inOverride = await schedule(h, u, {
      platforms: ['threads'],
      default_text: 'x',
      scheduled_time: inHours(1),
      threads: { scheduled_time: '2027-06-31T10:00:00Z' },
    });
    expect(detail(inOverride).map((d) => d.loc)).toEqual([['body', 'threads', 'scheduled_time']]);

    const id = await entry(u);
    const moved = await patch(h, u, id, { scheduled_time: IMPOSSIBLE });
    expect(moved.statusCode).toBe(422);
    expect(detail(moved).map((d) => d.loc)).toEqual([['body', 'scheduled_time']]);
    expect((await get(h, u, id))!.scheduled_time).toBe(inHours(3));

    const draft = await h.req({
      method: 'POST',
      url: '/unified/drafts',
      headers: asUser(u),
      payload: { post_type: 'text', platforms: ['threads'], default_text: 'later' },
    });
    const draftId = draft.json().drafts[0].draft_id;
    const scheduled = await h.req({
      method: 'POST',
      url: `/unified/drafts/${draftId}/schedule`,
      headers: asUser(u),
      payload: { scheduled_time: IMPOSSIBLE },
    });
    expect(scheduled.statusCode).toBe(422);
    expect(detail(scheduled).map((d) => d.loc)).toEqual([['body', 'scheduled_time']]);
    expect((await h.req({ method: 'GET', url: `/unified/drafts/${draftId}`, headers: asUser(u) })).statusCode).toBe(
      200,
    );
    expect(
      (await h.req({ method: 'GET', url: '/unified/scheduled-posts', headers: asUser(u) })).json().data.total,
    ).toBe(1);
  });
});

describe('PATCH post_data', () => {
  it('drops unknown keys (however large) and stores only what the post body defines', async () => {
    const u = await h.signup();
    const id = await entry(u);
    const res = await patch(h, u, id, { post_data: { default_text: 'edited', junk: 'x'.repeat(900_000) } });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const row = await get(h, u, id);
    expect(row!.post_data).toEqual({ platforms: ['bluesky'], default_text: 'edited' });
    const list = await h.req({ method: 'GET', url: '/unified/scheduled-posts', headers: asUser(u) });
    expect(list.body).not.toContain('junk');
    expect(list.body.length).toBeLessThan(10_000);
  });

  it('a PATCH that changes nothing Herald understands is 422, and the entry is untouched', async () => {
    const u = await h.signup();
    const id = await entry(u);
    const before = await h.ctx.scheduling.store.events(id);
    for (const [payload, loc] of [
      [{}, ['body']],
      [{ post_data: {} }, ['body', 'post_data']],
      [{ post_data: { junk: 1, 'another one': true } }, ['body', 'post_data']],
      [{ unknown_top_level: 'x' }, ['body']],
    ] as const) {
      const res = await patch(h, u, id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(detail(res)).toEqual([{ loc, msg: expect.stringMatching(/^Nothing to update/), type: 'value_error' }]);
    }
    const named = await patch(h, u, id, { post_data: { junk: 1 } });
    expect(detail(named)[0]!.msg).toContain('Unknown fields are ignored: "junk".');
    expect(await h.ctx.scheduling.store.events(id)).toHaveLength(before.length);
    expect((await get(h, u, id))!.post_data).toEqual({ platforms: ['bluesky'], default_text: 'stored text' });
  });

  it('is validated with the schema of the entry’s post type, errors at body.post_data.<field>', async () => {
    const u = await h.signup();
    const id = await entry(u);
    const cases: [Record<string, unknown>, unknown[]][] = [
      [{ default_text: 5 }, ['body', 'post_data', 'default_text']],
      [{ default_text: '\u200b \u200b' }, ['body', 'post_data', 'default_text']],
      [{ default_text: '' }, ['body', 'post_data', 'default_text']],
      [{ default_text: 'x'.repeat(3001) }, ['body', 'post_data', 'default_text']],
      [{ platforms: ['threads'] }, ['body', 'post_data', 'platforms']],
      [{ scheduled_time: inHours(5) }, ['body', 'post_data', 'scheduled_time']],
      [{ draft: true }, ['body', 'post_data', 'draft']],
      [{ linkedin: { linkedin_text: 'x' } }, ['body', 'post_data', 'linkedin']],
    ];
    for (const [postData, loc] of cases) {
      const res = await patch(h, u, id, { post_data: postData });
      expect(res.statusCode, JSON.stringify(postData).slice(0, 80)).toBe(422);
      expect(detail(res).map((d) => d.loc)).toEqual([loc]);
    }
    // Bluesky's own limits apply to the merged body, as at creation.
    const bytes = await patch(h, u, id, { post_data: { default_text: '👩‍👩‍👧‍👦'.repeat(121) } });
    expect(bytes.statusCode).toBe(422);
    expect(bytes.json().detail).toMatch(/^Max text size for bluesky is 3000 UTF-8 bytes/);
  });

  it('an override holding only unknown keys changes nothing (it does not clear the stored one)', async () => {
    const u = await h.signup();
    const res = await schedule(h, u, {
      platforms: ['threads'],
      default_text: 'x',
      scheduled_time: inHours(2),
      threads: { threads_text: 'for threads' },
    });
    const id = res.json().scheduled[0].scheduled_post_id;
    expect((await patch(h, u, id, { post_data: { threads: { threads_txt: 'typo' } } })).statusCode).toBe(422);
    const edited = await patch(h, u, id, { post_data: { default_text: 'y', threads: { threads_txt: 'typo' } } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await get(h, u, id))!.post_data).toMatchObject({
      default_text: 'y',
      threads: { threads_text: 'for threads' },
    });
  });

  it('names a refused media URL at its post_data field', async () => {
    const u = await h.signup();
    const res = await schedule(h, u, {
      post_type: 'image',
      platforms: ['threads'],
      default_image_id: await imageMedia(h, u),
      scheduled_time: inHours(2),
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().scheduled[0].scheduled_post_id;
    const bad = await patch(h, u, id, { post_data: { threads: { threads_image_url: 'https://10.1.2.3/a.jpg' } } });
    expect(bad.statusCode).toBe(422);
    expect(detail(bad)).toEqual([
      {
        loc: ['body', 'post_data', 'threads', 'threads_image_url'],
        msg: expect.stringMatching(/^URL refused/),
        type: 'url_refused',
      },
    ]);
  });

  it('a body over 1 MiB is refused before it is parsed', async () => {
    const u = await h.signup();
    const id = await entry(u);
    const res = await patch(h, u, id, { post_data: { default_text: 'x', junk: 'x'.repeat(2 * 1024 * 1024) } });
    expect(res.statusCode).toBe(413);
  });
});

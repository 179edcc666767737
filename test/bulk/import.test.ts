// Bulk import over HTTP (both database back ends): valid files, per-row reports, all-or-nothing against valid_only,
// encodings, ragged rows, file-level faults, the request size limit, credits and the queue column.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, type Harness } from '../helpers/harness.ts';
import { HOUR, TestClock } from '../scheduling/helpers.ts';
import { bulkHarness, csvLines, draftsOf, proUser, scheduledOf, send, SMALL_PLAN } from './helpers.ts';

const clock = new TestClock('2026-11-20T10:00:00Z');
let h: Harness;
beforeAll(async () => {
  h = await bulkHarness(clock);
});
afterAll(async () => h?.close());

const inHours = (n: number) => new Date(clock.now.getTime() + n * HOUR).toISOString();

describe('POST /unified/bulk/import', () => {
  it('schedules every row, reads local times in the workspace zone, fills override columns and saves drafts', async () => {
    const u = await proUser(h, 'Europe/Paris');
    const file = csvLines(
      'text,networks,time,linkedin_text,draft',
      `Launch day,"linkedin, threads",${inHours(3)},"Launch day, the long version",`,
      'Local time,bluesky,2026-12-01 09:30,,',
      'Idea for later,threads,,,true',
    );
    const res = await send(h, u, 'import', file);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, mode: 'all_or_nothing', rows: 3, valid: 3, imported: 3, errors: [] });
    expect(body.credits_reserved).toBe(3);
    expect(body.scheduled.map((s: { row: number; platform: string }) => [s.row, s.platform])).toEqual([
      [2, 'linkedin'],
      [2, 'threads'],
      [3, 'bluesky'],
    ]);
    expect(body.drafts).toMatchObject([{ row: 4, platform: 'threads', status: 'draft' }]);
    const entries = await scheduledOf(h, u);
    const li = entries.find((e) => e.platform === 'linkedin')!;
    expect(li.post_data).toMatchObject({
      default_text: 'Launch day',
      linkedin: { linkedin_text: 'Launch day, the long version' },
    });
    // 09:30 in Paris on 1 December is 08:30 UTC.
    const bsky = body.scheduled.find((s: { platform: string }) => s.platform === 'bluesky');
    expect(bsky.scheduled_time).toBe('2026-12-01T08:30:00.000Z');
    expect((await draftsOf(h, u)).map((d) => d.platform)).toEqual(['threads']);
    const usage = (await h.req({ method: 'GET', url: '/billing/usage', headers: asUser(u) })).json();
    expect(usage.used_this_period.scheduled_posts).toBe(3);
  });

  it('takes JSON lines, with lists and booleans as JSON values', async () => {
    const u = await proUser(h);
    const file = [
      JSON.stringify({ text: 'From JSON', networks: ['threads', 'bluesky'], time: inHours(5) }),
      '',
      JSON.stringify({ text: 'A JSON draft', networks: 'linkedin', draft: true }),
    ].join('\n');
    const res = await send(h, u, 'import', file, { type: 'application/x-ndjson' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ rows: 2, imported: 2 });
    expect(res.json().drafts).toMatchObject([{ row: 3, platform: 'linkedin' }]);
    expect((await scheduledOf(h, u)).map((e) => e.platform).sort()).toEqual(['bluesky', 'threads']);
  });

  it('is all-or-nothing by default: one bad row refuses the file with 422 per row and column, nothing written', async () => {
    const u = await proUser(h);
    const file = csvLines(
      'text,networks,time',
      `Fine,threads,${inHours(2)}`,
      `Nowhere,myspace,${inHours(2)}`,
      `${'x'.repeat(301)},bluesky,${inHours(2)}`,
      'Too early,threads,2020-01-01T00:00:00Z',
    );
    const res = await send(h, u, 'import', file);
    expect(res.statusCode, res.body).toBe(422);
    const detail = res.json().detail as { loc: (string | number)[]; msg: string }[];
    expect(detail.map((d) => d.loc)).toEqual([
      ['body', 3, 'networks'],
      ['body', 4, 'text'],
      ['body', 5, 'time'],
    ]);
    expect(detail[0]!.msg).toContain("Row 3, column networks: Unknown network 'myspace'");
    expect(detail[1]!.msg).toContain('300');
    expect(await scheduledOf(h, u)).toEqual([]);
    const usage = (await h.req({ method: 'GET', url: '/billing/usage', headers: asUser(u) })).json();
    expect(usage.used_this_period.scheduled_posts).toBe(0);
  });

  it('mode=valid_only writes the valid rows and reports the others', async () => {
    const u = await proUser(h);
    const file = csvLines('text,networks,time', `Fine,threads,${inHours(2)}`, 'No time,threads,');
    const res = await send(h, u, 'import', file, { query: 'mode=valid_only' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      mode: 'valid_only',
      rows: 2,
      valid: 1,
      invalid: 1,
      imported: 1,
      errors: [{ row: 3, column: 'time', message: expect.stringContaining('time is required') }],
    });
    expect((await scheduledOf(h, u)).map((e) => e.post_data.default_text)).toEqual(['Fine']);
  });

  it('reserves the credits of the whole file at once: short of them, 402 and nothing written', async () => {
    const u = await proUser(h);
    await h.setPlan(u.workspaceId, SMALL_PLAN);
    const file = csvLines(
      'text,networks,time',
      `One,"threads,bluesky",${inHours(2)}`,
      `Two,"threads,linkedin",${inHours(3)}`,
    );
    const res = await send(h, u, 'import', file);
    expect(res.statusCode, res.body).toBe(402);
    expect(res.json().detail).toMatchObject({
      error: 'insufficient_credits',
      credit_type: 'scheduled_posts',
      required: 4,
      available: 3,
    });
    expect(await scheduledOf(h, u)).toEqual([]);
    const fits = await send(h, u, 'import', csvLines('text,networks,time', `One,"threads,bluesky",${inHours(2)}`));
    expect(fits.statusCode, fits.body).toBe(200);
    expect(fits.json().credits_reserved).toBe(2);
  });

  it('answers 403 plan_required without bulk_scheduling_enabled, before reading the file', async () => {
    const u = await h.signup();
    await h.setPlan(u.workspaceId, 'starter');
    const res = await send(h, u, 'import', csvLines('text,networks,time', `x,threads,${inHours(2)}`));
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toMatchObject({ error: 'plan_required', feature: 'bulk_scheduling_enabled' });
  });

  it('writes drafts 2,000 per statement, in row order, with their own network text', async () => {
    const u = await proUser(h);
    // 1,100 rows for two networks: 2,200 drafts, so two statements (2,000 and 200) where one a draft was 2,200.
    const file = csvLines(
      'text,networks,threads_text,draft',
      ...Array.from({ length: 1100 }, (_, i) => `Idea ${i},"threads, bluesky",Thread ${i},true`),
    );
    const inserts: string[] = [];
    const stop = h.ctx.database.statements.watch((q) => {
      if (/^\s*(with r as \(\s*)?insert into "?drafts"?/i.test(q)) inserts.push(q);
    });
    const res = await send(h, u, 'import', file).finally(stop);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ imported: 1100, credits_reserved: 0, scheduled: [] });
    expect(inserts).toHaveLength(2);
    expect(body.drafts).toHaveLength(2200);
    expect(body.drafts.slice(0, 4)).toMatchObject([
      { row: 2, platform: 'threads', status: 'draft' },
      { row: 2, platform: 'bluesky', status: 'draft' },
      { row: 3, platform: 'threads', status: 'draft' },
      { row: 3, platform: 'bluesky', status: 'draft' },
    ]);
    expect(body.drafts.at(-1)).toMatchObject({ row: 1101, platform: 'bluesky' });
    expect(new Set(body.drafts.map((d: { draft_id: string }) => d.draft_id)).size).toBe(2200);
    // Each draft is its network's body: the threads one keeps its override, the bluesky one has none.
    const last = body.drafts.slice(-2) as { draft_id: string; platform: string }[];
    for (const d of last) {
      const got = await h.req({ method: 'GET', url: `/unified/drafts/${d.draft_id}`, headers: asUser(u) });
      expect(got.statusCode, got.body).toBe(200);
      const draft = got.json().data ?? got.json();
      expect(draft).toMatchObject({ id: d.draft_id, platform: d.platform, status: 'draft' });
      expect(JSON.stringify(draft)).toContain('Idea 1099');
      expect(JSON.stringify(draft).includes('Thread 1099')).toBe(d.platform === 'threads');
    }
  });

  it('puts rows naming a queue in its successive free slots; a failed import takes none', async () => {
    const u = await proUser(h);
    const made = await h.req({
      method: 'POST',
      url: '/unified/queues',
      headers: asUser(u),
      payload: {
        name: 'daily',
        time_zone: 'UTC',
        slots: ['friday', 'saturday'].flatMap((day) => ['11:00', '12:00'].map((time) => ({ day, time }))),
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    // Validation: the slot each row would take, in row order (a row with a time takes none).
    const lines = [
      'One,threads,daily,',
      'Two,"threads, bluesky",daily,',
      `Timed,threads,,${inHours(30)}`,
      'Three,threads,daily,',
    ];
    const timed = csvLines('text,networks,queue,time', ...lines);
    const checked = await send(h, u, 'validate', timed);
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json()).toMatchObject({ success: true, errors: [] });
    expect(checked.json().queued).toEqual([
      { row: 2, queue: 'daily', slot_time: '2026-11-20T11:00:00.000Z' },
      { row: 3, queue: 'daily', slot_time: '2026-11-20T12:00:00.000Z' },
      { row: 5, queue: 'daily', slot_time: '2026-11-21T11:00:00.000Z' },
    ]);
    // An unknown queue refuses its row; all_or_nothing then writes nothing and takes no slot.
    const refused = await send(
      h,
      u,
      'import',
      csvLines('text,networks,queue,time', ...lines, 'Lost,threads,Weekdays,'),
    );
    expect(refused.statusCode, refused.body).toBe(422);
    expect(JSON.stringify(refused.json().detail)).toContain("Queue 'Weekdays' not found.");
    const free = await h.req({ method: 'GET', url: '/unified/queue/daily/next-slots?count=1', headers: asUser(u) });
    expect(free.json().data.slots[0].slot_time).toBe('2026-11-20T11:00:00.000Z');
    // The import takes them: one slot per row, every network of a row in its slot.
    const res = await send(h, u, 'import', timed);
    expect(res.statusCode, res.body).toBe(200);
    expect(
      res
        .json()
        .scheduled.map((s: { row: number; platform: string; scheduled_time: string }) => [
          s.row,
          s.platform,
          s.scheduled_time,
        ]),
    ).toEqual([
      [2, 'threads', '2026-11-20T11:00:00.000Z'],
      [3, 'threads', '2026-11-20T12:00:00.000Z'],
      [3, 'bluesky', '2026-11-20T12:00:00.000Z'],
      [4, 'threads', new Date(clock.now.getTime() + 30 * HOUR).toISOString()],
      [5, 'threads', '2026-11-21T11:00:00.000Z'],
    ]);
    const after = await h.req({ method: 'GET', url: '/unified/queue/daily/next-slots?count=1', headers: asUser(u) });
    expect(after.json().data.slots[0].slot_time).toBe('2026-11-21T12:00:00.000Z');
    // A paused queue refuses its rows, each with why.
    await h.req({ method: 'PATCH', url: '/unified/queues/daily', headers: asUser(u), payload: { paused: true } });
    const paused = await send(h, u, 'validate', csvLines('text,networks,queue', 'Later,threads,daily'));
    expect(paused.json().errors).toEqual([
      { row: 2, column: 'queue', message: "Queue 'daily' is paused: resume it, or give the post a time." },
    ]);
  });

  it('refuses a malformed queue name; takes first_comment and <network>_first_comment columns', async () => {
    const u = await proUser(h);
    const bad = await send(h, u, 'validate', csvLines('text,networks,queue', 'x,threads,!!'));
    expect(bad.json().errors[0]).toMatchObject({
      row: 2,
      column: 'queue',
      message: expect.stringContaining('queue name'),
    });
    const comment = await send(
      h,
      u,
      'import',
      csvLines(
        'text,networks,time,first_comment,linkedin_first_comment',
        `x,"threads,linkedin",${inHours(2)},Under every post,LinkedIn's own`,
      ),
    );
    expect(comment.statusCode, comment.body).toBe(200);
    const byNetwork = Object.fromEntries((await scheduledOf(h, u)).map((e) => [e.platform, e.post_data]));
    expect(byNetwork.threads).toMatchObject({ first_comment: 'Under every post' });
    expect(byNetwork.linkedin).toMatchObject({
      first_comment: 'Under every post',
      linkedin: { first_comment: "LinkedIn's own" },
    });
    // A network's own column needs that network in the row, and the text must fit the network's comment limit.
    const wrong = await send(
      h,
      u,
      'validate',
      csvLines(
        'text,networks,time,linkedin_first_comment,threads_first_comment',
        `x,threads,${inHours(2)},Not for this row,`,
        `y,threads,${inHours(2)},,${'long '.repeat(200)}`,
      ),
    );
    expect(wrong.statusCode, wrong.body).toBe(200);
    expect(wrong.json().errors).toEqual([
      { row: 2, column: 'linkedin_first_comment', message: expect.stringContaining('linkedin') },
      { row: 3, column: 'threads_first_comment', message: expect.stringContaining('first comment') },
    ]);
  });
});

describe('file checks', () => {
  it('reads a UTF-8 file with a byte order mark', async () => {
    const u = await proUser(h);
    const file = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(csvLines('text,networks,time', `Crème brûlée ☕,threads,${inHours(2)}`)),
    ]);
    const res = await send(h, u, 'import', file);
    expect(res.statusCode, res.body).toBe(200);
    expect((await scheduledOf(h, u))[0]!.post_data.default_text).toBe('Crème brûlée ☕');
  });

  it('refuses a file that is not UTF-8 (Latin-1 from an old spreadsheet)', async () => {
    const u = await proUser(h);
    const file = Buffer.from(csvLines('text,networks,time', `Cr\u00e8me,threads,${inHours(2)}`), 'latin1');
    const res = await send(h, u, 'validate', file);
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0]).toMatchObject({ loc: ['body'], msg: expect.stringContaining('not UTF-8') });
  });

  it('reports ragged rows by number, and blank lines keep the numbering', async () => {
    const u = await proUser(h);
    const file = csvLines(
      'text,networks,time',
      `Fine,threads,${inHours(2)}`,
      '',
      `Extra,threads,${inHours(2)},surplus`,
      'Short',
    );
    const res = await send(h, u, 'validate', file);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: false, rows: 3, valid: 1, invalid: 2 });
    expect(res.json().errors).toEqual([
      { row: 4, column: null, message: 'Row 4 has 4 cells, the header has 3: check its quotes and commas.' },
      { row: 5, column: null, message: 'Row 5 has 1 cells, the header has 3: check its quotes and commas.' },
    ]);
  });

  it('refuses unknown columns, an empty file, a header alone, and a body that is neither CSV nor JSON lines', async () => {
    const u = await proUser(h);
    const unknown = await send(h, u, 'validate', csvLines('text,networks,when', 'x,threads,y'));
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().detail[0].msg).toContain("'when'");
    const empty = await send(h, u, 'validate', '');
    expect(empty.statusCode).toBe(422);
    expect(empty.json().detail[0].msg).toContain('empty');
    const header = await send(h, u, 'validate', csvLines('text,networks,time'));
    expect(header.statusCode).toBe(422);
    expect(header.json().detail[0].msg).toContain('no posts');
    const json = await h.req({
      method: 'POST',
      url: '/unified/bulk/validate',
      headers: asUser(u),
      payload: { text: 'x' },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json().detail).toContain('text/csv');
  });

  it('validation writes nothing and does not download media, but checks the URLs', async () => {
    const u = await proUser(h);
    const file = csvLines(
      'text,networks,time,media_urls',
      `Photo,threads,${inHours(2)},https://media.example.test/a.jpg`,
      `Bad,threads,${inHours(2)},ftp://media.example.test/a.jpg`,
      `Two videos,threads,${inHours(2)},https://m.example.test/a.mp4 https://m.example.test/b.mp4`,
    );
    const res = await send(h, u, 'validate', file);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().errors.map((e: { row: number; column: string }) => [e.row, e.column])).toEqual([
      [3, 'media_urls'],
      [4, 'media_urls'],
    ]);
    expect(await scheduledOf(h, u)).toEqual([]);
  });

  it('imports media URLs through the address policy: a private address is refused at its row', async () => {
    const u = await proUser(h);
    const file = csvLines('text,networks,time,media_urls', `Photo,threads,${inHours(2)},https://127.0.0.1/a.jpg`);
    const res = await send(h, u, 'import', file, { query: 'mode=valid_only' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ imported: 0, errors: [{ row: 2, column: 'media_urls' }] });
  });

  it('refuses a 50 MB file with the 413 of the API, and more than 10,000 posts with a 422', async () => {
    const u = await proUser(h);
    const big = Buffer.alloc(50 * 1024 * 1024, 'a');
    const res = await send(h, u, 'import', big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      detail: expect.stringMatching(/^Request body too large: .*limit for this route is \d+ bytes\.$/),
    });
    const rows = ['text,networks,draft', ...Array.from({ length: 10_001 }, (_, i) => `Post ${i},threads,true`)];
    const many = await send(h, u, 'validate', csvLines(...rows));
    expect(many.statusCode).toBe(422);
    expect(many.json().detail[0].msg).toContain('more than 10000 posts');
  });
});

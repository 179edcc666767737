// Bulk export, and the round trip: what one workspace exports, another imports into the same schedule. Formula-like
// cells are stored as sent, escaped in the CSV export, and come back unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, type Harness, type TestUser } from '../helpers/harness.ts';
import { HOUR, TestClock } from '../scheduling/helpers.ts';
import { bulkHarness, csvLines, draftsOf, proUser, scheduledOf, send } from './helpers.ts';

const clock = new TestClock('2026-11-20T10:00:00Z');
let h: Harness;
beforeAll(async () => {
  h = await bulkHarness(clock);
});
afterAll(async () => h?.close());

const inHours = (n: number) => new Date(clock.now.getTime() + n * HOUR).toISOString();
const exportOf = (u: TestUser, query = '') =>
  h.req({ method: 'GET', url: `/unified/bulk/export${query}`, headers: asUser(u) });
const schedule = (entries: Awaited<ReturnType<typeof scheduledOf>>) =>
  entries
    .map((e) => [e.platform, new Date(e.scheduled_time).toISOString(), e.post_type, e.post_data])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])) || String(a[1]).localeCompare(String(b[1])));

describe('GET /unified/bulk/export', () => {
  it('round trip: an export imported into another workspace reproduces the schedule and the drafts', async () => {
    const a = await proUser(h, 'Europe/Paris');
    const b = await proUser(h, 'America/New_York');
    const file = csvLines(
      'text,networks,time,linkedin_text,threads_text,draft',
      `"Line one\nline two, with ""quotes""","linkedin,threads",${inHours(3)},LinkedIn's own,Threads' own,`,
      `Second,bluesky,${inHours(26)},,,`,
      'Kept for later,threads,,,,true',
    );
    expect((await send(h, a, 'import', file)).statusCode).toBe(200);
    const csv = await exportOf(a);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n')[0]).toMatch(/^text,networks,time,queue,media_urls,draft,.*linkedin_text/);
    const imported = await send(h, b, 'import', csv.body);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json()).toMatchObject({ imported: 4 });
    expect(schedule(await scheduledOf(h, b))).toEqual(schedule(await scheduledOf(h, a)));
    const draftText = (u: TestUser) => draftsOf(h, u).then((d) => d.map((x) => [x.platform, x.default_text]));
    expect(await draftText(b)).toEqual(await draftText(a));

    // JSON lines carry the same rows.
    const json = await exportOf(a, '?format=json');
    expect(json.headers['content-type']).toContain('application/x-ndjson');
    const c = await proUser(h);
    const again = await send(h, c, 'import', json.body, { type: 'application/x-ndjson' });
    expect(again.statusCode, again.body).toBe(200);
    expect(schedule(await scheduledOf(h, c))).toEqual(schedule(await scheduledOf(h, a)));
  });

  it("round trip of first comments: the post's and a network's own come back as each network's first_comment", async () => {
    const a = await proUser(h);
    const file = csvLines(
      'text,networks,time,first_comment,linkedin_first_comment',
      `With comments,"linkedin,threads",${inHours(4)},"=1+1, a comment",LinkedIn's own`,
      `No comment,threads,${inHours(5)},,`,
    );
    expect((await send(h, a, 'import', file)).statusCode).toBe(200);
    const csv = (await exportOf(a)).body;
    const header = csv.split('\r\n')[0]!.split(',');
    expect(header).toContain('first_comment');
    expect(header).toContain('linkedin_first_comment');
    const lines = (await exportOf(a, '?format=json')).body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.networks, l.text, l.first_comment])).toEqual([
      ['linkedin', 'With comments', "LinkedIn's own"],
      ['threads', 'With comments', '=1+1, a comment'],
      ['threads', 'No comment', undefined],
    ]);
    expect(csv).toContain(`"'=1+1, a comment"`);
    const b = await proUser(h);
    expect((await send(h, b, 'import', csv)).statusCode).toBe(200);
    const comments = async (u: TestUser) =>
      (await scheduledOf(h, u))
        .map((e) => {
          const own = e.post_data[e.platform] as { first_comment?: string } | undefined;
          return [e.platform, e.scheduled_time, own?.first_comment ?? e.post_data.first_comment ?? null];
        })
        .sort((x, y) => String(x[1]).localeCompare(String(y[1])) || String(x[0]).localeCompare(String(y[0])));
    expect(await comments(b)).toEqual(await comments(a));
    expect((await comments(b)).map((c) => c[2])).toEqual(["LinkedIn's own", '=1+1, a comment', null]);
  });

  it('stores formula-like cells as text, escapes them in the CSV export, and a round trip keeps them', async () => {
    const a = await proUser(h);
    const cells = ['=HYPERLINK("http://evil.example","click")', '+1 555 0100', '-minus', '@mention'];
    const file = csvLines(
      'text,networks,time',
      ...cells.map((t, i) => `"${t.replaceAll('"', '""')}",threads,${inHours(2 + i)}`),
    );
    expect((await send(h, a, 'import', file)).statusCode).toBe(200);
    expect((await scheduledOf(h, a)).map((e) => e.post_data.default_text).sort()).toEqual([...cells].sort());
    const csv = (await exportOf(a)).body;
    for (const line of csv.split('\r\n').slice(1).filter(Boolean)) expect(line).toMatch(/^"?'[=+\-@]/);
    const json = (await exportOf(a, '?format=json')).body;
    expect(json).toContain('"text":"=HYPERLINK');
    const b = await proUser(h);
    expect((await send(h, b, 'import', csv)).statusCode).toBe(200);
    expect((await scheduledOf(h, b)).map((e) => e.post_data.default_text).sort()).toEqual([...cells].sort());
  });

  it("filters by time and status, and shows a workspace only its own posts and its key's networks", async () => {
    const a = await proUser(h);
    const other = await proUser(h);
    await send(h, other, 'import', csvLines('text,networks,time', `Not yours,threads,${inHours(2)}`));
    await send(
      h,
      a,
      'import',
      csvLines(
        'text,networks,time,draft',
        `Soon,threads,${inHours(2)},`,
        `Later,bluesky,${inHours(48)},`,
        'Draft,threads,,true',
      ),
    );
    const all = (await exportOf(a, '?format=json')).body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(all.map((r) => r.text)).toEqual(['Soon', 'Later', 'Draft']);
    const window = (await exportOf(a, `?format=json&from=${inHours(1)}&to=${inHours(3)}`)).body.trim().split('\n');
    expect(window.map((l) => JSON.parse(l).text)).toEqual(['Soon']);
    const drafts = (await exportOf(a, '?format=json&status=draft')).body.trim().split('\n');
    expect(drafts.map((l) => JSON.parse(l))).toEqual([{ networks: 'threads', text: 'Draft', draft: true }]);
    const key = await h.createKey(a, 'bluesky');
    const scoped = await h.req({
      method: 'GET',
      url: '/unified/bulk/export?format=json',
      headers: { 'x-api-key': key },
    });
    expect(
      scoped.body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).text),
    ).toEqual(['Later']);
    const refused = await send(h, a, 'import', csvLines('text,networks,time', `x,threads,${inHours(2)}`), {
      headers: { 'x-api-key': key, authorization: '', 'x-workspace-id': '' },
    });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().detail[0].msg).toContain("not allowed for platform 'threads'");
  });
});

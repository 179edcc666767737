// The import_posts tool: validation only unless asked to import, the plan gate in band, and the workspace's approval
// setting (tool_posts_need_approval) holding every imported post as a draft pending approval.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, type Harness } from '../helpers/harness.ts';
import { HOUR, TestClock } from '../scheduling/helpers.ts';
import { setApproval } from '../tools/approval-helpers.ts';
import { toolRunner } from '../tools/helpers.ts';
import { bulkHarness, csvLines, draftsOf, proUser, scheduledOf } from './helpers.ts';

const clock = new TestClock('2026-11-20T10:00:00Z');
let h: Harness;
beforeAll(async () => {
  h = await bulkHarness(clock);
});
afterAll(async () => h?.close());

const { call, fails, outcome } = toolRunner(() => h);
const inHours = (n: number) => new Date(clock.now.getTime() + n * HOUR).toISOString();

describe('import_posts', () => {
  it('validates by default and writes nothing; with import: true it schedules', async () => {
    const u = await proUser(h);
    const file = csvLines('text,networks,time', `From a chat,threads,${inHours(2)}`, 'Broken,threads,');
    const checked = await call(u, 'import_posts', { file });
    expect(checked).toMatchObject({
      success: false,
      rows: 2,
      valid: 1,
      invalid: 1,
      errors: [{ row: 3, column: 'time' }],
    });
    expect(await scheduledOf(h, u)).toEqual([]);
    const refused = await fails(u, 'import_posts', { file, import: true });
    expect(refused.status).toBe(422);
    const done = await call(u, 'import_posts', { file, import: true, valid_only: true });
    expect(done).toMatchObject({ success: true, imported: 1, message: expect.stringContaining('1 scheduled') });
    expect((await scheduledOf(h, u)).map((e) => e.post_data.default_text)).toEqual(['From a chat']);
  });

  it('takes JSON lines, and answers the plan gate in band', async () => {
    const u = await proUser(h);
    const file = JSON.stringify({ text: 'JSON', networks: 'bluesky', time: inHours(4) });
    expect(await call(u, 'import_posts', { file, format: 'jsonl', import: true })).toMatchObject({ imported: 1 });
    await h.setPlan(u.workspaceId, 'starter');
    const gated = await outcome(u, 'import_posts', { file, format: 'jsonl' });
    expect(JSON.stringify(gated)).toContain('bulk_scheduling_enabled');
  });

  it('with tool_posts_need_approval, imported posts wait as drafts pending approval and spend nothing', async () => {
    const u = await proUser(h);
    await setApproval(h, u, true);
    const file = csvLines(
      'text,networks,time,draft',
      `Needs a yes,"threads,bluesky",${inHours(2)},`,
      'Plain draft,threads,,true',
    );
    const res = await call(u, 'import_posts', { file, import: true }, { surface: 'mcp' });
    expect(res).toMatchObject({ success: true, pending_approval: true, credits_reserved: 0, scheduled: [] });
    expect(await scheduledOf(h, u)).toEqual([]);
    const drafts = await draftsOf(h, u);
    expect(drafts.map((d) => [d.platform, d.status]).sort()).toEqual([
      ['bluesky', 'pending_approval'],
      ['threads', 'draft'],
      ['threads', 'pending_approval'],
    ]);
    // Each held draft raised its post.approval_requested event, as a post held one at a time does; the plain one none.
    const held = drafts.filter((d) => d.status === 'pending_approval');
    const evs = await h.req({
      method: 'GET',
      url: '/events?order=asc&type=post.approval_requested',
      headers: asUser(u),
    });
    expect(evs.statusCode, evs.body).toBe(200);
    const data = (evs.json().events as { data: Record<string, unknown> }[]).map((e) => e.data);
    expect(data.sort((a, b) => String(a.platform).localeCompare(String(b.platform)))).toEqual(
      held
        .sort((a, b) => a.platform.localeCompare(b.platform))
        .map((d) => ({
          draft_id: d.id,
          platform: d.platform,
          post_type: 'text',
          requested_via: 'mcp',
          requested_by: expect.any(String),
          decided_by: null,
          reason: null,
        })),
    );
  });
});

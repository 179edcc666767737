// Each post event is produced by the change behind it, in the same statement or transaction: publishing now,
// the scheduling worker, the queue's own changes (scheduled, rescheduled, cancelled, missed) and approvals.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asUser, bearer, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { captureLogs } from '../helpers/log-capture.ts';
import { connect } from '../connections/helpers.ts';
import { scriptedAdapters, type Script } from '../publishing/helpers.ts';
import { cancel, HOUR, patch, schedule, TestClock } from '../scheduling/helpers.ts';
import { PlatformError } from '../../src/platforms/types.ts';
import type { PostBody } from '../../src/publishing/schemas.ts';
import { postAttempts } from '../../src/db/schema-events.ts';
import { eq, sql } from '../../src/db/orm.ts';

const script: Script = { calls: [], behaviour: {} };
const clock = new TestClock('2026-11-20T10:00:00Z');
const logs = captureLogs('info');
let h: Harness;
let u: TestUser;

interface Ev {
  id: string;
  type: string;
  post_id: string | null;
  platform: string | null;
  occurred_at: string;
  data: Record<string, unknown> & { targets?: Record<string, unknown>[] };
}

beforeAll(async () => {
  h = await createHarness({
    sandbox: true,
    clock: clock.fn,
    logger: logs.logger,
    overrides: { adapters: scriptedAdapters(script) },
    env: { HERALD_SCHEDULE_GRACE_SECONDS: '3600' },
  });
  u = await h.signup();
  await connect(h, u, 'linkedin');
  await connect(h, u, 'threads');
});
afterAll(async () => h?.close());
beforeEach(() => {
  script.behaviour = {};
});

async function events(qs = ''): Promise<Ev[]> {
  const res = await h.req({ method: 'GET', url: `/events?order=asc&limit=200${qs}`, headers: asUser(u) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().events as Ev[];
}
const ofPost = (postId: string) => events(`&post_id=${postId}`);
const post = (payload: object) =>
  h.req({
    method: 'POST',
    url: '/unified/post/text',
    headers: asUser(u),
    payload: { default_text: 'Hello', ...payload },
  });
const ledgerPostOf = async (targetPlatform: string) => {
  const rows = await h.ctx.database.db.query.posts.findMany({ orderBy: (p, { desc }) => [desc(p.createdAt)] });
  for (const r of rows) {
    const targets = await h.ctx.publishing.ledger.targetsOf(r.id);
    if (targets.some((t) => t.platform === targetPlatform)) return { post: r, targets };
  }
  throw new Error('no ledger post');
};
const attemptsOf = (postId: string) =>
  h.ctx.database.db.select().from(postAttempts).where(eq(postAttempts.postId, postId)).orderBy(postAttempts.seq);
const failWith = (platform: 'linkedin' | 'threads', message: string, kind: 'invalid_content' | 'transient') => {
  script.behaviour[platform] = async () => {
    throw new PlatformError(platform, kind, message, { status: kind === 'transient' ? 500 : 400 });
  };
};

describe('publishing now', () => {
  it('post.published with every target, an attempt each, and one log line per target', async () => {
    const res = await post({ platforms: ['linkedin', 'threads'] });
    expect(
      res.json().results.map((r: { success: boolean }) => r.success),
      res.body,
    ).toEqual([true, true]);
    const { post: p, targets } = await ledgerPostOf('threads');
    const evs = await ofPost(p.id);
    expect(evs.map((e) => e.type)).toEqual(['post.published']);
    expect(evs[0]!.platform).toBeNull();
    expect(evs[0]!.data).toMatchObject({ post_id: p.id, post_type: 'text', scheduled_post_id: null });
    expect(evs[0]!.data.targets!.map((t) => [t.platform, t.state, t.attempts]).sort()).toEqual([
      ['linkedin', 'published', 1],
      ['threads', 'published', 1],
    ]);
    const attempts = await attemptsOf(p.id);
    expect(attempts.map((a) => [a.targetId, a.outcome, a.attempt, a.source]).sort()).toEqual(
      targets.map((t) => [t.id, 'published', 1, 'request']).sort(),
    );
    const lines = logs.lines.map((l) => JSON.parse(l)).filter((l) => l.post === p.id);
    expect(lines.map((l) => [l.msg, l.network, l.attempt]).sort()).toEqual([
      ['target published', 'linkedin', 1],
      ['target published', 'threads', 1],
    ]);
  });

  it('post.partially_published when one network refuses, with its sanitized error text', async () => {
    failWith(
      'threads',
      'Bad request https://graph.threads.net/x?access_token=SECRET123 Bearer abc.def',
      'invalid_content',
    );
    const res = await post({ platforms: ['linkedin', 'threads'] });
    expect(
      res
        .json()
        .results.map((r: { success: boolean }) => r.success)
        .sort(),
      res.body,
    ).toEqual([false, true]);
    const { post: p } = await ledgerPostOf('threads');
    const [ev] = await ofPost(p.id);
    expect(ev!.type).toBe('post.partially_published');
    const failed = ev!.data.targets!.find((t) => t.platform === 'threads')!;
    expect(failed).toMatchObject({ state: 'failed', error_code: 'CONTENT_REJECTED' });
    expect(failed.error_message).toContain('Bad request');
    expect(failed.error_message).not.toContain('SECRET123');
    expect(failed.error_message).not.toContain('abc.def');
    const line = logs.lines.map((l) => JSON.parse(l)).find((l) => l.post === p.id && l.msg === 'target failed');
    expect(line).toMatchObject({ network: 'threads', attempt: 1, code: 'CONTENT_REJECTED' });
  });

  it('post.failed when every network fails; the event is for this post only, once', async () => {
    failWith('linkedin', 'Server error', 'transient');
    const res = await post({ platforms: ['linkedin'] });
    expect(res.json().success).toBe(false);
    const { post: p } = await ledgerPostOf('linkedin');
    const evs = await ofPost(p.id);
    expect(evs.map((e) => [e.type, e.platform])).toEqual([['post.failed', 'linkedin']]);
  });
});

describe('the queue', () => {
  it('post.scheduled, post.rescheduled (from → to) and post.deleted on cancel', async () => {
    const when = new Date(clock.now.getTime() + 2 * HOUR).toISOString();
    const res = await schedule(h, u, { platforms: ['linkedin'], default_text: 'later', scheduled_time: when });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().scheduled[0].scheduled_post_id as string;
    const later = new Date(clock.now.getTime() + 3 * HOUR).toISOString();
    expect((await patch(h, u, id, { scheduled_time: later })).statusCode).toBe(200);
    // A content edit alone is no reschedule.
    expect((await patch(h, u, id, { post_data: { default_text: 'edited' } })).statusCode).toBe(200);
    expect((await cancel(h, u, id)).statusCode).toBe(200);
    const mine = (await events()).filter((e) => e.data.scheduled_post_id === id);
    expect(mine.map((e) => e.type)).toEqual(['post.scheduled', 'post.rescheduled', 'post.deleted']);
    expect(mine[0]!.data).toMatchObject({ platform: 'linkedin', scheduled_time: when, post_type: 'text' });
    expect(mine[1]!.data).toMatchObject({ scheduled_time: later, previous_scheduled_time: when });
    expect(mine[2]!.data).toMatchObject({ post_id: null, platforms: ['linkedin'] });
  });

  it('the worker: post.published for the entry, post.failed after the last attempt, post.failed when missed', async () => {
    const t0 = clock.now.getTime();
    const ok = await schedule(h, u, {
      platforms: ['linkedin'],
      default_text: 'worker ok',
      scheduled_time: new Date(t0 + 60_000).toISOString(),
    });
    const okId = ok.json().scheduled[0].scheduled_post_id as string;
    const bad = await schedule(h, u, {
      platforms: ['threads'],
      default_text: 'worker refused',
      scheduled_time: new Date(t0 + 60_000).toISOString(),
    });
    const badId = bad.json().scheduled[0].scheduled_post_id as string;
    const missed = await schedule(h, u, {
      platforms: ['linkedin'],
      default_text: 'missed',
      scheduled_time: new Date(t0 + 30_000).toISOString(),
    });
    const missedId = missed.json().scheduled[0].scheduled_post_id as string;
    failWith('threads', 'Your post breaks a rule', 'invalid_content');
    // The missed one is due past the grace period when the worker looks.
    await h.ctx.database.db.execute(
      sql`update scheduled_posts set scheduled_time = scheduled_time - interval '2 hours' where id = ${missedId}::uuid`,
    );
    clock.advance(60_000);
    await h.ctx.scheduleWorker.tick();
    const all = await events();
    const of = (id: string) => all.filter((e) => e.data.scheduled_post_id === id).map((e) => e.type);
    expect(of(okId)).toEqual(['post.scheduled', 'post.published']);
    expect(of(badId)).toEqual(['post.scheduled', 'post.failed']);
    expect(of(missedId)).toEqual(['post.scheduled', 'post.failed']);
    const missedEv = all.find((e) => e.data.scheduled_post_id === missedId && e.type === 'post.failed')!;
    expect(missedEv.post_id).toBeNull();
    expect(String(missedEv.data.error_message)).toMatch(/missed|grace/i);
    const okEv = all.find((e) => e.data.scheduled_post_id === okId && e.type === 'post.published')!;
    expect(okEv.post_id).not.toBeNull();
    const attempts = await attemptsOf(okEv.post_id!);
    expect(attempts.map((a) => [a.outcome, a.source])).toEqual([['published', 'worker']]);
  });
});

describe('approvals', () => {
  it('post.approval_requested when a tool post is held, post.approved on approval, post.rejected on deletion', async () => {
    const res = await h.req({
      method: 'PATCH',
      url: `/workspaces/${u.workspaceId}`,
      headers: bearer(u.token),
      payload: { tool_posts_need_approval: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    const key = await h.createKey(u, 'full');
    const principal = await h.ctx.auth.workspace({ token: key, workspaceHeader: undefined });
    const held = await h.ctx.publishing.approvals.submitFromTool({ principal, surface: 'mcp' }, 'text', {
      platforms: ['linkedin', 'threads'],
      default_text: 'from a tool',
    } as PostBody);
    const drafts = (held.body as { drafts: { draft_id: string; platform: string }[] }).drafts;
    const byNet = Object.fromEntries(drafts.map((d) => [d.platform, d.draft_id]));
    const ok = await h.req({ method: 'POST', url: `/unified/drafts/${byNet.linkedin}/approve`, headers: asUser(u) });
    expect(ok.statusCode, ok.body).toBe(200);
    const del = await h.req({ method: 'DELETE', url: `/unified/drafts/${byNet.threads}`, headers: asUser(u) });
    expect(del.statusCode).toBe(200);
    const evs = (await events('&type=post.approval_requested,post.approved,post.rejected')).map((e) => [
      e.type,
      e.data.draft_id,
      e.data.requested_via,
      e.data.decided_by,
    ]);
    expect(evs).toEqual([
      ['post.approval_requested', byNet.linkedin, 'mcp', null],
      ['post.approval_requested', byNet.threads, 'mcp', null],
      ['post.approved', byNet.linkedin, 'mcp', u.userId],
      ['post.rejected', byNet.threads, 'mcp', u.userId],
    ]);
  });
});

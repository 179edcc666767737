// A member (or a program) sends a post for approval (POST /unified/drafts with pending_approval: true): it is checked
// as publishing would check it and held as drafts pending approval, whatever the workspace setting; the list says who
// asked; another member approves it (published, or scheduled at its time) or rejects it with a reason. The one who
// sent it cannot approve it; API keys never approve; the key's network scope and the workspace hold on every route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { joinWorkspace } from '../helpers/security-matrix.ts';
import { connect } from '../connections/helpers.ts';
import { listed, networkCalls } from '../tools/approval-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ sandbox: true, clock: () => new Date() });
  await fetch(`${h.url}/sandbox/_config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ processingMs: 0 }),
  });
});
afterAll(async () => h?.close());

const THREADS_POST = ['POST', /\/threads_publish$/] as const;

/** An owner with Threads connected and a second member who joined their workspace. */
async function team(): Promise<{ owner: TestUser; member: TestUser }> {
  const owner = await h.signup();
  await connect(h, owner, 'threads');
  const member = await h.signup();
  await joinWorkspace(h, owner, member);
  return { owner, member: { ...member, workspaceId: owner.workspaceId } };
}

const send = (headers: Record<string, string>, extra: Record<string, unknown> = {}) =>
  h.req({
    method: 'POST',
    url: '/unified/drafts',
    headers,
    payload: { post_type: 'text', platforms: ['threads'], default_text: 'Our launch, for review', ...extra },
  });

const approve = (id: string, headers: Record<string, string>) =>
  h.req({ method: 'POST', url: `/unified/drafts/${id}/approve`, headers });
const reject = (id: string, headers: Record<string, string>, reason?: string) =>
  h.req({ method: 'POST', url: `/unified/drafts/${id}/reject`, headers, payload: reason ? { reason } : {} });

async function events(u: TestUser, type: string) {
  const res = await h.req({ method: 'GET', url: '/events?order=asc&limit=200', headers: asUser(u) });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().events as { type: string; data: Record<string, unknown> }[]).filter((e) => e.type === type);
}

describe('sending a post for approval', () => {
  it('holds it with who asked; another member approves it and it is published once', async () => {
    const { owner, member } = await team();
    const before = await networkCalls(h, 'threads', ...THREADS_POST);
    const res = await send(asUser(member), { pending_approval: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, pending_approval: true });
    const [ref] = res.json().drafts as { draft_id: string; status: string }[];
    expect(ref!.status).toBe('pending_approval');

    const [item] = await listed(h, owner);
    expect(item).toMatchObject({ id: ref!.draft_id, requested_via: 'rest', kind: 'post' });
    expect((item as unknown as { requested_by: unknown }).requested_by).toEqual({
      kind: 'member',
      id: member.userId,
      name: null,
      email: member.email,
    });
    const one = await h.req({ method: 'GET', url: `/unified/drafts/${ref!.draft_id}`, headers: asUser(owner) });
    expect(one.json().data.requested_by).toMatchObject({ kind: 'member', email: member.email });
    // Held: the network saw nothing, and the request is an event naming the member.
    expect(await networkCalls(h, 'threads', ...THREADS_POST)).toBe(before);
    const [requested] = await events(owner, 'post.approval_requested');
    expect(requested!.data).toMatchObject({ requested_via: 'rest', requested_by: member.userId, reason: null });

    // The member who sent it cannot approve it; the owner can.
    const own = await approve(ref!.draft_id, asUser(member));
    expect(own.statusCode, own.body).toBe(403);
    const ok = await approve(ref!.draft_id, asUser(owner));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ success: true, approved: true, draft_id: ref!.draft_id });
    expect(await networkCalls(h, 'threads', ...THREADS_POST)).toBe(before + 1);
    expect(await listed(h, owner)).toEqual([]);
    const [approved] = await events(owner, 'post.approved');
    expect(approved!.data).toMatchObject({ requested_by: member.userId, decided_by: owner.userId });
  });

  it('schedules it at its scheduled_time when approved', async () => {
    const { owner, member } = await team();
    const at = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const res = await send(asUser(member), { pending_approval: true, scheduled_time: at });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().drafts[0].draft_id as string;
    const ok = await approve(id, asUser(owner));
    expect(ok.statusCode, ok.body).toBe(200);
    const queue = await h.req({ method: 'GET', url: '/unified/scheduled-posts', headers: asUser(owner) });
    const entries = JSON.stringify(queue.json());
    expect(entries).toContain('Our launch, for review');
    expect(entries).toContain(at.slice(0, 16));
  });

  it('is checked as publishing checks it: a time in the past is refused and nothing is held', async () => {
    const { owner, member } = await team();
    const res = await send(asUser(member), { pending_approval: true, scheduled_time: '2020-01-01T00:00:00Z' });
    expect(res.statusCode, res.body).toBe(422);
    const draftToo = await send(asUser(member), { pending_approval: true, draft: true });
    expect(draftToo.statusCode, draftToo.body).toBe(422);
    expect(await listed(h, owner)).toEqual([]);
  });

  it('is rejected with a reason: it leaves the list and post.rejected says who and why', async () => {
    const { owner, member } = await team();
    const id = (await send(asUser(member), { pending_approval: true })).json().drafts[0].draft_id as string;
    const res = await reject(id, asUser(owner), 'Wrong launch date');
    expect(res.statusCode, res.body).toBe(200);
    expect(await listed(h, owner)).toEqual([]);
    const [rejected] = await events(owner, 'post.rejected');
    expect(rejected!.data).toMatchObject({
      draft_id: id,
      requested_by: member.userId,
      decided_by: owner.userId,
      reason: 'Wrong launch date',
    });
    // Only what waits can be rejected: a plain draft is 409 (it is deleted instead).
    const plain = (await send(asUser(member))).json().drafts[0].draft_id as string;
    expect((await reject(plain, asUser(owner))).statusCode).toBe(409);
    expect((await reject(id, asUser(owner))).statusCode).toBe(404);
  });
});

describe('keys and workspaces', () => {
  it('an API key may send a post for approval (named in the list) but never approves one', async () => {
    const { owner } = await team();
    const key = await h.createKey(owner, 'full');
    const res = await send({ 'x-api-key': key }, { pending_approval: true });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().drafts[0].draft_id as string;
    const [item] = await listed(h, owner);
    expect((item as unknown as { requested_by: unknown }).requested_by).toMatchObject({ kind: 'key', name: 'test' });
    expect((await approve(id, { 'x-api-key': key })).statusCode).toBe(403);
    // The owner approves what a program sent (no one approves their own: a key is not the owner).
    expect((await approve(id, asUser(owner))).statusCode).toBe(200);
  });

  it("a key without the draft's network in its scope neither sees, approves nor rejects it", async () => {
    const { owner, member } = await team();
    const id = (await send(asUser(member), { pending_approval: true })).json().drafts[0].draft_id as string;
    const linkedinOnly = await h.createKey(owner, 'linkedin');
    expect(await listed(h, owner, 'pending_approval', { 'x-api-key': linkedinOnly })).toEqual([]);
    expect((await approve(id, { 'x-api-key': linkedinOnly })).statusCode).toBe(403);
    expect((await reject(id, { 'x-api-key': linkedinOnly }, 'no')).statusCode).toBe(403);
    expect(await listed(h, owner)).toHaveLength(1);
  });

  it('another workspace neither sees, approves nor rejects it', async () => {
    const { owner, member } = await team();
    const id = (await send(asUser(member), { pending_approval: true })).json().drafts[0].draft_id as string;
    const stranger = await h.signup();
    expect(await listed(h, stranger)).toEqual([]);
    expect((await approve(id, asUser(stranger))).statusCode).toBe(404);
    expect((await reject(id, asUser(stranger), 'mine now')).statusCode).toBe(404);
    const otherKey = await h.createKey(stranger, 'full');
    expect((await reject(id, { 'x-api-key': otherKey })).statusCode).toBe(404);
    expect(await listed(h, owner)).toHaveLength(1);
  });
});

// The inbox's read state per member (GET/POST /unified/comments/read): what one member marks read is theirs in every
// browser (any session of theirs), not another member's; keys have no read state; a network outside the plan's or
// the key's reach is refused; marking again moves the read time forward.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { joinWorkspace } from '../helpers/security-matrix.ts';

let now = new Date('2026-11-20T10:00:00Z');
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ clock: () => now });
});
afterAll(async () => h?.close());

const mark = (headers: Record<string, string>, comments: { platform: string; comment_id: string }[]) =>
  h.req({ method: 'POST', url: '/unified/comments/read', headers, payload: { comments } });
async function readOf(headers: Record<string, string>) {
  const res = await h.req({ method: 'GET', url: '/unified/comments/read', headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().read as { platform: string; comment_id: string; read_at: string }[];
}

async function login(u: TestUser): Promise<Record<string, string>> {
  const res = await h.req({ method: 'POST', url: '/auth/login', payload: { email: u.email, password: u.password } });
  expect(res.statusCode, res.body).toBe(200);
  return { authorization: `Bearer ${res.json().access_token}`, 'x-workspace-id': u.workspaceId };
}

describe('read state of the inbox', () => {
  it("is the member's own, in every session of theirs, the most recently read first", async () => {
    const owner = await h.signup();
    const member = await h.signup();
    await joinWorkspace(h, owner, member);
    const res = await mark(asUser(owner), [
      { platform: 'threads', comment_id: 'c1' },
      { platform: 'youtube', comment_id: 'Ug1' },
      { platform: 'threads', comment_id: 'c1' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, marked: 2 });
    // Another session (another browser) of the same member sees it.
    const elsewhere = await login(owner);
    expect((await readOf(elsewhere)).map((r) => `${r.platform}:${r.comment_id}`).sort()).toEqual([
      'threads:c1',
      'youtube:Ug1',
    ]);
    // The other member of the workspace has read nothing.
    expect(await readOf({ ...asUser(member), 'x-workspace-id': owner.workspaceId })).toEqual([]);
    // Reading again later moves it first.
    now = new Date(now.getTime() + 60_000);
    await mark(asUser(owner), [{ platform: 'threads', comment_id: 'c1' }]);
    const [first] = await readOf(asUser(owner));
    expect(first).toEqual({ platform: 'threads', comment_id: 'c1', read_at: now.toISOString() });
  });

  it('is per workspace: what is read in one is not read in another of the same member', async () => {
    const owner = await h.signup();
    const other = await h.signup();
    await joinWorkspace(h, other, owner);
    await mark(asUser(owner), [{ platform: 'threads', comment_id: 'only-here' }]);
    expect(await readOf({ ...asUser(owner), 'x-workspace-id': other.workspaceId })).toEqual([]);
  });

  it('is refused to API keys (no member to keep it for) and for unknown networks', async () => {
    const owner = await h.signup();
    const key = await h.createKey(owner, 'full');
    expect((await mark({ 'x-api-key': key }, [{ platform: 'threads', comment_id: 'c1' }])).statusCode).toBe(403);
    expect(
      (await h.req({ method: 'GET', url: '/unified/comments/read', headers: { 'x-api-key': key } })).statusCode,
    ).toBe(403);
    expect((await mark(asUser(owner), [{ platform: 'myspace', comment_id: 'c1' }])).statusCode).toBe(400);
    expect((await mark(asUser(owner), [])).statusCode).toBe(422);
    expect(await readOf(asUser(owner))).toEqual([]);
  });
});

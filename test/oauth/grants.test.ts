// What a connector's grant outlives and what it does not: a member removed from the workspace, one who
// leaves it, a deleted workspace; and what the API says to a token issued for another resource.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { eq } from '../../src/db/orm.ts';
import { oauthEntities } from '../../src/db/schema-oauth.ts';
import { CHATGPT_CALLBACK, exchange, pkce, register, signInAndAuthorize } from './helpers.ts';

let h: Harness;
let owner: TestUser;
beforeAll(async () => {
  h = await createHarness();
  await h.signup();
  owner = await h.signup({ workspace_name: 'Team' });
});
afterAll(async () => h?.close());

async function connect(user: TestUser, opts: { workspaceId?: string; resource?: string } = {}) {
  const client = await register(h);
  const { verifier, challenge } = pkce();
  const back = await signInAndAuthorize(h, user, {
    clientId: client.client_id,
    challenge,
    workspaceId: opts.workspaceId,
    resource: opts.resource ?? null,
  });
  const res = await exchange(h, {
    grant_type: 'authorization_code',
    code: back.searchParams.get('code')!,
    redirect_uri: CHATGPT_CALLBACK,
    client_id: client.client_id,
    code_verifier: verifier,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { clientId: client.client_id, ...(res.json() as { access_token: string; refresh_token: string }) };
}

const call = (token: string) =>
  h.req({ method: 'GET', url: '/billing/usage', headers: { authorization: `Bearer ${token}` } });
const refresh = (c: { clientId: string; refresh_token: string }) =>
  exchange(h, { grant_type: 'refresh_token', refresh_token: c.refresh_token, client_id: c.clientId });
const grants = async () =>
  (await h.ctx.database.db.select().from(oauthEntities).where(eq(oauthEntities.model, 'Grant'))).map((r) =>
    String(r.payload.accountId),
  );

async function join(member: TestUser, workspaceId = owner.workspaceId) {
  const inv = await h.req({
    method: 'POST',
    url: `/workspaces/${workspaceId}/invitations`,
    headers: { authorization: `Bearer ${owner.token}` },
    payload: { email: member.email, role: 'member' },
  });
  expect(inv.statusCode, inv.body).toBeLessThan(300);
  const ok = await h.req({
    method: 'POST',
    url: '/invitations/accept',
    headers: { authorization: `Bearer ${member.token}` },
    payload: { token: inv.json().token },
  });
  expect(ok.statusCode, ok.body).toBeLessThan(300);
}

describe('leaving a workspace ends the connectors made for it', () => {
  it('a member removed by an owner: the grant is revoked, its refresh token yields nothing', async () => {
    const member = await h.signup();
    await join(member);
    const there = await connect(member, { workspaceId: owner.workspaceId });
    const own = await connect(member);
    expect((await call(there.access_token)).statusCode).toBe(200);

    const removed = await h.req({
      method: 'DELETE',
      url: `/workspaces/${owner.workspaceId}/members/${member.userId}`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await call(there.access_token)).statusCode).toBe(401);
    const again = await refresh(there);
    expect(again.statusCode, again.body).toBe(400);
    expect(again.json().error).toBe('invalid_grant');
    expect((await grants()).filter((a) => a.startsWith(`${member.userId}:${owner.workspaceId}:`))).toEqual([]);
    // Joining again does not bring the old grant back.
    await join(member);
    expect((await call(there.access_token)).statusCode).toBe(401);
    // The member's connector for their own workspace is untouched.
    expect((await refresh(own)).statusCode).toBe(200);
  });

  it('a member who leaves: the same', async () => {
    const member = await h.signup();
    await join(member);
    const there = await connect(member, { workspaceId: owner.workspaceId });
    const left = await h.req({
      method: 'DELETE',
      url: `/workspaces/${owner.workspaceId}/members/${member.userId}`,
      headers: { authorization: `Bearer ${member.token}` },
    });
    expect(left.statusCode, left.body).toBe(200);
    expect((await call(there.access_token)).statusCode).toBe(401);
    expect((await refresh(there)).json().error).toBe('invalid_grant');
  });

  it('a deleted workspace: the same, for every member', async () => {
    const member = await h.signup();
    const ws = await h.req({
      method: 'POST',
      url: '/workspaces',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { name: 'Short-lived' },
    });
    const wsId = (ws.json() as { id: string }).id;
    await join(member, wsId);
    const mine = await connect(owner, { workspaceId: wsId });
    const theirs = await connect(member, { workspaceId: wsId });
    const del = await h.req({
      method: 'DELETE',
      url: `/workspaces/${wsId}`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(del.statusCode, del.body).toBeLessThan(300);
    for (const c of [mine, theirs]) {
      expect((await call(c.access_token)).statusCode).toBe(401);
      expect((await refresh(c)).json().error).toBe('invalid_grant');
    }
    expect((await grants()).filter((a) => a.includes(`:${wsId}:`))).toEqual([]);
  });
});

describe('a token issued for another resource', () => {
  it('is told so on the REST API, with the 401 and body of any bad token', async () => {
    const mcp = await connect(owner, { resource: `${h.url}/web/mcp` });
    const res = await call(mcp.access_token);
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.json()).toEqual({ detail: `This token was issued for ${h.url}/web/mcp, not for this API.` });

    const bad = await call(`${mcp.access_token.slice(0, -4)}AAAA`);
    expect(bad.json()).toEqual({ detail: 'Invalid or expired token.' });
    // Revoked: invalid, whatever it was issued for.
    await h.ctx.oauth.revokeGrant((await h.ctx.oauth.verifyAccessToken(mcp.access_token, `${h.url}/web/mcp`))!.grantId);
    expect((await call(mcp.access_token)).json()).toEqual({ detail: 'Invalid or expired token.' });
  });
});

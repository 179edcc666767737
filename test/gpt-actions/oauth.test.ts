// GPT Actions with the OAuth access token ChatGPT obtains (no resource parameter: a token for the whole API):
// actions run for the token's workspace; the token cannot approve held posts; a revoked token is 401; a token
// issued for the MCP endpoint does not reach the actions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, asUser, bearer, type Harness, type TestUser } from '../helpers/harness.ts';
import { exchange, pkce, register, signInAndAuthorize, CHATGPT_CALLBACK } from '../oauth/helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await h.signup(); // the instance's administrator
});
afterAll(async () => h?.close());

async function chatgptTokens(
  u: TestUser,
  resource?: string,
): Promise<{ access_token: string; refresh_token: string; client_id: string }> {
  const client = await register(h);
  const { verifier, challenge } = pkce();
  const back = await signInAndAuthorize(h, u, {
    clientId: client.client_id,
    challenge,
    ...(resource ? { resource } : {}),
  });
  const res = await exchange(h, {
    grant_type: 'authorization_code',
    code: back.searchParams.get('code')!,
    redirect_uri: CHATGPT_CALLBACK,
    client_id: client.client_id,
    code_verifier: verifier,
    ...(resource ? { resource } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  return { ...(res.json() as { access_token: string; refresh_token: string }), client_id: client.client_id };
}

const action = (name: string, token: string, payload: object = {}) =>
  h.req({ method: 'POST', url: `/unified/gpt-actions/${name}`, headers: bearer(token), payload });

describe('GPT Actions with an OAuth access token', () => {
  it("run for the token's workspace with no X-Workspace-Id, and stop with 401 once the grant is revoked", async () => {
    const u = await h.signup({ workspace_name: 'Chat team' });
    const t = await chatgptTokens(u);
    const res = await action('get_accounts', t.access_token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, platforms: [] });
    // Another workspace named in the header does not change where the token acts.
    const other = await h.signup();
    const elsewhere = await h.req({
      method: 'POST',
      url: '/unified/gpt-actions/get_accounts',
      headers: { ...bearer(t.access_token), 'x-workspace-id': other.workspaceId },
      payload: {},
    });
    expect(elsewhere.statusCode).toBe(403);

    const revoked = await h.req({
      method: 'POST',
      url: '/auth/oauth/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: t.refresh_token, client_id: t.client_id }).toString(),
    });
    expect(revoked.statusCode).toBe(200);
    const after = await action('get_accounts', t.access_token);
    expect(after.statusCode).toBe(401);
  });

  it('disconnect_gpt_connector (body {}) revokes the OAuth token: the next call is 401; with an API key it is a no-op', async () => {
    const u = await h.signup();
    const t = await chatgptTokens(u);
    const res = await action('disconnect_gpt_connector', t.access_token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, revoked_oauth_token: true, detail: expect.any(String) });
    expect((await action('get_accounts', t.access_token)).statusCode).toBe(401);
    // The refresh token of the grant is gone too: reconnecting is the only way back.
    const refreshed = await exchange(h, {
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token,
      client_id: t.client_id,
    });
    expect(refreshed.statusCode).toBe(400);

    const key = await h.createKey(u, 'full');
    const keyed = await action('disconnect_gpt_connector', key);
    expect(keyed.json()).toMatchObject({ success: true, revoked_oauth_token: false });
    expect((await action('get_accounts', key)).statusCode).toBe(200);
  });

  it('a token issued for the MCP endpoint does not reach the actions', async () => {
    const u = await h.signup();
    const t = await chatgptTokens(u, `${h.url}/web/mcp`);
    expect((await action('get_accounts', t.access_token)).statusCode).toBe(401);
  });

  it('cannot approve a post held for approval: only a member signed in to Herald can', async () => {
    const u = await h.signup();
    const set = await h.req({
      method: 'PATCH',
      url: `/workspaces/${u.workspaceId}`,
      headers: bearer(u.token),
      payload: { tool_posts_need_approval: true },
    });
    expect(set.statusCode).toBe(200);
    const t = await chatgptTokens(u);
    const principal = await h.ctx.auth.workspace({ token: t.access_token, workspaceHeader: undefined });
    expect(principal.oauthGrantId).toBeTruthy();
    const held = await h.ctx.publishing.approvals.submitFromTool({ principal, surface: 'gpt' }, 'text', {
      platforms: ['bluesky'],
      default_text: 'From ChatGPT',
    } as never);
    const id = (held.body as { drafts: { draft_id: string }[] }).drafts[0]!.draft_id;
    const byToken = await h.req({
      method: 'POST',
      url: `/unified/drafts/${id}/approve`,
      headers: bearer(t.access_token),
    });
    expect(byToken.statusCode).toBe(403);
    expect(byToken.json().detail).toContain('chat connector');
    // The member's own session may (Bluesky is not connected here: the publication fails and the post stays pending).
    const byMember = await h.req({ method: 'POST', url: `/unified/drafts/${id}/approve`, headers: asUser(u) });
    expect(byMember.statusCode).toBe(200);
    expect(byMember.json()).toMatchObject({ approved: false, success: false, error: 'NOT_CONNECTED' });
  });
});

// Account events, each with the change behind it: connecting (sandbox OAuth), a connection that needs
// reconnecting (once per transition), a token about to expire that cannot be renewed (once per warning), and
// disconnecting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';

let h: Harness;
let u: TestUser;
beforeAll(async () => {
  h = await createHarness({ sandbox: true });
  u = await h.signup();
});
afterAll(async () => h?.close());

const accountEvents = async () =>
  (await h.req({ method: 'GET', url: '/events?type=account.*&order=asc', headers: asUser(u) })).json().events as {
    type: string;
    platform: string;
    data: Record<string, unknown>;
  }[];

describe('account events', () => {
  it('connected, needs_reconnect (once), token_expiring (once), disconnected', async () => {
    await connect(h, u, 'linkedin');
    const [conn] = await h.ctx.connectionStore.list(u.workspaceId, 'linkedin');
    await h.ctx.connectionStore.warnExpiring(conn!.id, 'expires on 2026-12-01; reconnect before then');
    await h.ctx.connectionStore.warnExpiring(conn!.id, 'expires on 2026-12-01; reconnect before then');
    await h.ctx.connectionStore.markNeedsReconnect(conn!.id, 'The token was revoked at LinkedIn');
    await h.ctx.connectionStore.markNeedsReconnect(conn!.id, 'The token was revoked at LinkedIn');
    const res = await h.req({ method: 'DELETE', url: '/unified/oauth/token?platform=linkedin', headers: asUser(u) });
    expect(res.statusCode, res.body).toBe(200);
    const evs = await accountEvents();
    expect(evs.map((e) => e.type)).toEqual([
      'account.connected',
      'account.token_expiring',
      'account.needs_reconnect',
      'account.disconnected',
    ]);
    for (const e of evs)
      expect(e).toMatchObject({
        platform: 'linkedin',
        data: { platform: 'linkedin', platform_user_id: conn!.accountId, display_name: conn!.displayName },
      });
    expect(evs[1]!.data.reason).toMatch(/reconnect before then/);
    expect(evs[2]!.data.reason).toBe('The token was revoked at LinkedIn');
    expect(JSON.stringify(evs)).not.toMatch(/access_token|refresh_token/);
  });
});

describe('post.deleted at the network', () => {
  it('DELETE /unified/posts/{id} writes post.deleted with the ledger post, once', async () => {
    const v = await h.signup();
    await connect(h, v, 'linkedin');
    const res = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(v),
      payload: { platforms: ['linkedin'], default_text: 'to be deleted' },
    });
    expect(res.json().success, res.body).toBe(true);
    const networkId = res.json().post.post_id as string;
    const del = await h.req({
      method: 'DELETE',
      url: `/unified/posts/${encodeURIComponent(networkId)}?platform=linkedin`,
      headers: asUser(v),
    });
    expect(del.statusCode, del.body).toBe(200);
    const evs = (await h.req({ method: 'GET', url: '/events?type=post.deleted', headers: asUser(v) })).json()
      .events as { post_id: string | null; data: Record<string, unknown> }[];
    expect(evs).toHaveLength(1);
    expect(evs[0]!.post_id).not.toBeNull();
    expect(evs[0]!.data).toMatchObject({ platforms: ['linkedin'], platform_post_id: networkId });
  });
});

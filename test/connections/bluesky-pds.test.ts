// Connecting a real Bluesky account: a local @atproto/pds with an in-memory PLC, through Herald's route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, asUser, type Harness } from '../helpers/harness.ts';
import { startLocalPds, type LocalPds } from '../helpers/bluesky-pds.ts';

let pds: LocalPds;
let h: Harness;
beforeAll(async () => {
  pds = await startLocalPds();
  h = await createHarness({ env: { HERALD_BLUESKY_SERVICE_URL: pds.url, HERALD_BLUESKY_PLC_URL: pds.plcUrl } });
});
afterAll(async () => {
  await h?.close();
  await pds?.stop();
});

describe('Bluesky against a real PDS', () => {
  it('connects with a handle and an app password, reports the account, and disconnects it', async () => {
    const account = await pds.createAccount();
    const appPassword = await pds.createAppPassword(account);
    const u = await h.signup();
    const res = await h.req({
      method: 'POST',
      url: '/unified/oauth/url',
      headers: asUser(u),
      payload: { platform: ['bluesky'], handle: account.handle, app_password: appPassword },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      results: { bluesky: { success: true, message: expect.stringContaining(account.handle), auth_url: null } },
    });

    const status = (
      await h.req({ method: 'GET', url: '/unified/oauth/token?platform=bluesky', headers: asUser(u) })
    ).json();
    expect(status.results.bluesky.success).toBe(true);
    const [row] = await h.ctx.connectionStore.list(u.workspaceId, 'bluesky');
    expect(row!.accountId).toBe(account.did);
    const tokens = h.ctx.connectionStore.tokens(row!);
    expect(tokens.extra).toMatchObject({ did: account.did, pds: pds.url });
    // The session is an app-password session, never a full-access one.
    expect(tokens.scopes).toContain('com.atproto.appPass');

    const profiles = (
      await h.req({
        method: 'GET',
        url: '/unified/user-profiles/?platforms=bluesky&force_refresh=true',
        headers: asUser(u),
      })
    ).json();
    expect(profiles.bluesky.profile).toMatchObject({ did: account.did, handle: account.handle });
    expect(profiles.bluesky.error).toBeUndefined();

    // A refresh rotates the session at the PDS and the new one is stored.
    const refreshed = await h.ctx.tokens.refresh(row!, { force: true });
    expect(h.ctx.connectionStore.tokens(refreshed).refreshToken).not.toBe(tokens.refreshToken);

    const del = (
      await h.req({ method: 'DELETE', url: '/unified/oauth/token?platform=bluesky', headers: asUser(u) })
    ).json();
    expect(del.results.bluesky).toEqual({ success: true, message: 'Token deleted', data: null });
    expect(await h.ctx.connectionStore.list(u.workspaceId, 'bluesky')).toHaveLength(0);
  });

  it('refuses the account password before anything reaches the network', async () => {
    const account = await pds.createAccount();
    const u = await h.signup();
    const res = await h.req({
      method: 'POST',
      url: '/unified/oauth/url',
      headers: asUser(u),
      payload: { platform: ['bluesky'], handle: account.handle, app_password: account.password },
    });
    expect(res.statusCode).toBe(422);
    expect(await h.ctx.connectionStore.list(u.workspaceId, 'bluesky')).toHaveLength(0);
  });

  it('answers success:false for a wrong app password', async () => {
    const account = await pds.createAccount();
    const u = await h.signup();
    const res = await h.req({
      method: 'POST',
      url: '/unified/oauth/url',
      headers: asUser(u),
      payload: { platform: ['bluesky'], handle: account.handle, app_password: 'aaaa-bbbb-cccc-dddd' },
    });
    expect(res.json().results.bluesky).toMatchObject({ success: false, auth_url: null });
    expect(res.json().results.bluesky.message).toMatch(/Invalid handle or app password/);
  });
});

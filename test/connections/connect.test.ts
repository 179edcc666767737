import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../src/db/schema.ts';
import { platformConnections } from '../../src/db/schema-connections.ts';
import { eq } from '../../src/db/orm.ts';
import { createHarness, asUser, bearer, type Harness } from '../helpers/harness.ts';
import {
  APP_PASSWORD,
  OAUTH_NETWORKS,
  approve,
  authUrl,
  callbackUrlOf,
  connect,
  fault,
  sandboxState,
} from './helpers.ts';

let h: Harness;
// Near the adapters' pinned API versions (LinkedIn versions stay active for 12 months).
let now = new Date('2026-11-20T10:00:00Z');
beforeAll(async () => {
  h = await createHarness({ sandbox: true, clock: () => now });
});
afterAll(async () => h?.close());

describe('connecting all eight networks in the sandbox', () => {
  it('connects, reports, profiles and disconnects every network, and notifies the owner', async () => {
    const u = await h.signup();
    for (const p of OAUTH_NETWORKS) await connect(h, u, p);
    await connect(h, u, 'bluesky');

    const status = (await h.req({ method: 'GET', url: '/unified/oauth/token', headers: asUser(u) })).json();
    for (const p of [...OAUTH_NETWORKS, 'bluesky']) expect(status.results[p], p).toMatchObject({ success: true });

    const [ws] = (await h.req({ method: 'GET', url: '/workspaces', headers: bearer(u.token) })).json();
    for (const p of [...OAUTH_NETWORKS, 'bluesky']) expect(ws[`${p}_connected`], p).toBe(true);
    expect(ws.connected_social_count).toBe(8);

    const profiles = (await h.req({ method: 'GET', url: '/unified/user-profiles/', headers: asUser(u) })).json();
    for (const p of [...OAUTH_NETWORKS, 'bluesky']) expect(profiles[p], p).not.toBeNull();
    expect(profiles.linkedin.oauth_connection_count).toBe(1);
    expect(profiles.linkedin.organizations.length).toBeGreaterThan(0);
    expect(profiles.facebook.pages.length).toBeGreaterThan(0);
    expect(profiles.pinterest.boards.length).toBeGreaterThan(0);
    expect(profiles.bluesky.profile.did).toMatch(/^did:/);

    // No token the networks issued appears in any of Herald's answers or in the database in the clear.
    const issued =
      JSON.stringify(await sandboxState(h)).match(/"(access_token|accessToken|accessJwt|token)":"([^"]{12,})"/g) ?? [];
    const answers = JSON.stringify([status, ws, profiles]);
    const rows = JSON.stringify(
      await h.ctx.database.db
        .select()
        .from(platformConnections)
        .where(eq(platformConnections.workspaceId, u.workspaceId)),
    );
    for (const m of issued) {
      const value = m.split('":"')[1]!.replace(/"$/, '');
      expect(answers).not.toContain(value);
      expect(rows).not.toContain(value);
    }

    const del = await h.req({
      method: 'DELETE',
      url: '/unified/oauth/token?platform=linkedin&platform=bluesky',
      headers: asUser(u),
    });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({
      results: {
        linkedin: { success: true, message: 'Token deleted', data: null },
        bluesky: { success: true, message: 'Token deleted', data: null },
      },
    });
    const after = (
      await h.req({ method: 'GET', url: '/unified/oauth/token?platform=linkedin', headers: asUser(u) })
    ).json();
    expect(after.results.linkedin).toEqual({
      success: false,
      connected: false,
      message: 'LinkedIn not connected for this workspace.',
    });
    const [ws2] = (await h.req({ method: 'GET', url: '/workspaces', headers: bearer(u.token) })).json();
    expect(ws2.linkedin_connected).toBe(false);
    const mail = await h.ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.workspaceId, u.workspaceId));
    expect(mail.map((m) => [m.toAddress, m.kind, m.status])).toEqual([
      [u.email, 'account_disconnected', 'queued'],
      [u.email, 'account_disconnected', 'queued'],
    ]);
    expect(mail[0]!.subject).toMatch(/LinkedIn was disconnected/);
    // LinkedIn offers revocation: the grant is dead at the network too.
    const li = (await sandboxState(h)).linkedin!;
    expect(JSON.stringify(li.requests)).toContain('/oauth/v2/revoke');
  });

  it('splits comma-separated platforms and answers one result per network', async () => {
    const u = await h.signup();
    const res = await h.req({
      method: 'POST',
      url: '/unified/oauth/url',
      headers: asUser(u),
      payload: { platform: 'linkedin, youtube' },
    });
    expect(Object.keys(res.json().results)).toEqual(['linkedin', 'youtube']);
    const url = new URL(res.json().results.youtube.auth_url);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe(`${h.url}/youtube/oauth/callback`);
  });
});

describe('bad input', () => {
  it('refuses unknown platforms, Bluesky without credentials, and account passwords', async () => {
    const u = await h.signup();
    const unknown = await h.req({
      method: 'POST',
      url: '/unified/oauth/url',
      headers: asUser(u),
      payload: { platform: ['myspace'] },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().detail).toMatch(/^Invalid or unsupported platform: 'myspace'/);
    const missing = await h.req({
      method: 'POST',
      url: '/unified/oauth/url',
      headers: asUser(u),
      payload: { platform: ['bluesky'], handle: 'a.sandbox' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ detail: 'handle and app_password are required for bluesky' });
    const password = await h.req({
      method: 'POST',
      url: '/unified/oauth/url',
      headers: asUser(u),
      payload: { platform: ['bluesky'], handle: 'a.sandbox', app_password: 'my real password' },
    });
    expect(password.statusCode).toBe(422);
    expect(password.json().detail[0]).toMatchObject({ loc: ['body', 'app_password'] });
    expect(password.json().detail[0].msg).toMatch(/app password/i);
    const wrongType = await h.req({
      method: 'POST',
      url: '/unified/oauth/url',
      headers: asUser(u),
      payload: { platform: 42 },
    });
    expect(wrongType.statusCode).toBe(422);
    const noPlatform = await h.req({ method: 'DELETE', url: '/unified/oauth/token', headers: asUser(u) });
    expect(noPlatform.statusCode).toBe(422);
  });

  it('a key scoped to LinkedIn cannot connect or disconnect other networks, and sees only its networks', async () => {
    const u = await h.signup();
    const key = await h.createKey(u, 'linkedin');
    const res = await h.req({
      method: 'POST',
      url: '/unified/oauth/url',
      headers: { 'x-api-key': key },
      payload: { platform: ['linkedin', 'facebook'] },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toContain("'facebook'");
    const status = (await h.req({ method: 'GET', url: '/unified/oauth/token', headers: { 'x-api-key': key } })).json();
    expect(Object.keys(status.results)).toEqual(['linkedin']);
    expect(
      (await h.req({ method: 'DELETE', url: '/unified/oauth/token?platform=tiktok', headers: { 'x-api-key': key } }))
        .statusCode,
    ).toBe(403);
  });
});

describe('state and callback safety', () => {
  it('refuses tampered, replayed, expired and cross-network states and stores nothing', async () => {
    const u = await h.signup();
    const cb = await callbackUrlOf(await authUrl(h, u, 'linkedin'));
    const tampered = new URL(cb);
    tampered.searchParams.set('state', `${cb.searchParams.get('state')}x`);
    const t = await fetch(tampered);
    expect(t.status).toBe(400);
    expect(await t.text()).toContain('invalid, expired or was already used');
    const crossed = new URL(cb.toString().replace('/linkedin/oauth/callback', '/pinterest/oauth/callback'));
    expect((await fetch(crossed)).status).toBe(400);
    expect((await fetch(cb)).status).toBe(200); // the genuine one still works once
    expect((await fetch(cb)).status).toBe(400); // …and only once
    const cb2 = await callbackUrlOf(await authUrl(h, u, 'pinterest'));
    const saved = now;
    now = new Date(now.getTime() + 11 * 60_000);
    try {
      expect((await fetch(cb2)).status).toBe(400);
    } finally {
      now = saved;
    }
    const rows = await h.ctx.connectionStore.list(u.workspaceId);
    expect(rows.map((r) => r.platform)).toEqual(['linkedin']);
  });

  it('a network error during the code exchange ends on a failure page with no half-stored connection', async () => {
    const u = await h.signup();
    const url = await authUrl(h, u, 'tiktok');
    await fault(h, { platform: 'tiktok', operation: 'token', fault: 'server_error', times: 1 });
    const done = await approve(url);
    expect(done.status).toBe(400);
    expect(done.html).toContain('Connecting TikTok failed');
    expect(await h.ctx.connectionStore.list(u.workspaceId)).toHaveLength(0);
  });

  it("one workspace's connection is invisible to another", async () => {
    const a = await h.signup();
    const b = await h.signup();
    await connect(h, a, 'youtube');
    const bStatus = (
      await h.req({ method: 'GET', url: '/unified/oauth/token?platform=youtube', headers: asUser(b) })
    ).json();
    expect(bStatus.results.youtube.success).toBe(false);
    expect(
      (await h.req({ method: 'GET', url: '/unified/user-profiles/?platforms=youtube', headers: asUser(b) })).json(),
    ).toEqual({ youtube: null });
    const del = (
      await h.req({ method: 'DELETE', url: '/unified/oauth/token?platform=youtube', headers: asUser(b) })
    ).json();
    expect(del.results.youtube.success).toBe(false);
    expect((await h.ctx.connectionStore.list(a.workspaceId)).map((r) => r.platform)).toEqual(['youtube']);
  });

  it('enforces the connected-account limit of the plan', async () => {
    const u = await h.signup();
    await h.setPlan(u.workspaceId, 'free'); // 3 accounts
    for (const p of ['linkedin', 'threads', 'pinterest']) await connect(h, u, p);
    const res = await h.req({
      method: 'POST',
      url: '/unified/oauth/url',
      headers: asUser(u),
      payload: { platform: ['tiktok'] },
    });
    expect(res.json().results.tiktok).toMatchObject({ success: false, auth_url: null });
    expect(res.json().results.tiktok.message).toMatch(/limit/i);
    const bsky = await h.req({
      method: 'POST',
      url: '/unified/oauth/url',
      headers: asUser(u),
      payload: { platform: ['bluesky'], handle: 'zed.sandbox', app_password: APP_PASSWORD },
    });
    expect(bsky.json().results.bluesky.success).toBe(false);
  });
});

describe('networks without app credentials', () => {
  it('answer success:false saying the network is not configured', async () => {
    const plain = await createHarness();
    try {
      const u = await plain.signup();
      const res = await plain.req({
        method: 'POST',
        url: '/unified/oauth/url',
        headers: asUser(u),
        payload: { platform: ['linkedin'] },
      });
      expect(res.json().results.linkedin).toEqual({
        success: false,
        message: expect.stringContaining('not configured on this server'),
        auth_url: null,
      });
    } finally {
      await plain.close();
    }
  });
});

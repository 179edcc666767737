// Token lifecycle against the simulators: refresh ahead of expiry, rotation, retries that never erase
// tokens, one refresh at a time, dead grants → "needs reconnect", Bluesky's 400 ExpiredToken.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, asUser, bearer, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect, fault, sandboxState } from './helpers.ts';
import { linkedinAdapter } from '../../src/platforms/linkedin/index.ts';
import type { AdapterFactory, OAuth2Auth, TokenSet } from '../../src/platforms/types.ts';

let h: Harness;
let now = new Date('2026-11-20T09:00:00Z');
/** While set, LinkedIn refreshes go out with an app secret the network does not know (a misconfigured server). */
let wrongSecret = false;
const linkedinWithSwitchableSecret: AdapterFactory = (deps) => {
  const good = linkedinAdapter(deps);
  const bad = linkedinAdapter({ ...deps, config: { ...deps.config, clientSecret: 'not-the-secret' } });
  const auth = good.auth as OAuth2Auth;
  return {
    ...good,
    auth: { ...auth, refresh: (t: TokenSet) => ((wrongSecret ? bad : good).auth as OAuth2Auth).refresh!(t) },
  };
};
beforeAll(async () => {
  h = await createHarness({
    sandbox: true,
    clock: () => now,
    overrides: { tokenKeeper: { backoffMs: [5, 5, 5] }, adapters: { linkedin: linkedinWithSwitchableSecret } },
  });
});
afterAll(async () => h?.close());

const refreshCalls = async (platform: string, path: RegExp) =>
  ((await sandboxState(h))[platform]!.requests ?? []).filter((r) => path.test(r.path) && r.method === 'POST').length;

async function row(u: TestUser, platform: string) {
  const [r] = await h.ctx.connectionStore.list(u.workspaceId, platform as never);
  return r!;
}

async function advance(ms: number, fn: () => Promise<void>) {
  const saved = now;
  now = new Date(now.getTime() + ms);
  try {
    await fn();
  } finally {
    now = saved;
  }
}

describe('token lifecycle', () => {
  it('refreshes ahead of expiry and stores the rotated refresh token (TikTok rotates)', async () => {
    const u = await h.signup();
    await connect(h, u, 'tiktok');
    const before = await row(u, 'tiktok');
    const oldTokens = h.ctx.connectionStore.tokens(before);
    // TikTok access tokens live 2 h: 1 h 57 min later they are inside the refresh-ahead window.
    await advance(117 * 60_000, async () => {
      const res = await h.req({
        method: 'GET',
        url: '/unified/user-profiles/?platforms=tiktok&force_refresh=true',
        headers: asUser(u),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().tiktok.error).toBeUndefined();
      const after = await row(u, 'tiktok');
      expect(after.tokenVersion).toBe(before.tokenVersion + 1);
      const t = h.ctx.connectionStore.tokens(after);
      expect(t.refreshToken).not.toBe(oldTokens.refreshToken);
      expect(t.accessToken).not.toBe(oldTokens.accessToken);
      expect(t.expiresAt!.getTime()).toBeGreaterThan(now.getTime());
      // A refreshable grant works until its refresh token ends (months away for TikTok).
      expect(res.json().tiktok.connection.expires_at).toBe(after.refreshExpiresAt?.toISOString() ?? null);
      expect(after.refreshExpiresAt!.getTime()).toBeGreaterThan(now.getTime() + 150 * 24 * 3600_000);
    });
  });

  it('refreshes and retries once when the network says the token expired', async () => {
    const u = await h.signup();
    await connect(h, u, 'pinterest');
    const before = await row(u, 'pinterest');
    await fault(h, { platform: 'pinterest', operation: 'profile', fault: 'expire_token', times: 1 });
    const res = await h.req({
      method: 'GET',
      url: '/unified/user-profiles/?platforms=pinterest&force_refresh=true',
      headers: asUser(u),
    });
    expect(res.json().pinterest.error).toBeUndefined();
    expect((await row(u, 'pinterest')).tokenVersion).toBe(before.tokenVersion + 1);
  });

  it('retries a transient refresh failure with backoff and never erases the stored tokens', async () => {
    const u = await h.signup();
    await connect(h, u, 'linkedin');
    const before = await row(u, 'linkedin');
    const tokens = h.ctx.connectionStore.tokens(before);
    await fault(h, { platform: 'linkedin', operation: 'refresh', fault: 'server_error', times: 2 });
    const ok = await h.ctx.tokens.refresh(before, { force: true });
    expect(ok.tokenVersion).toBe(before.tokenVersion + 1);

    await fault(h, { platform: 'linkedin', operation: 'refresh', fault: 'server_error', times: 10 });
    await expect(h.ctx.tokens.refresh(ok, { force: true })).rejects.toMatchObject({ kind: 'transient' });
    const kept = await row(u, 'linkedin');
    expect(kept.tokenVersion).toBe(ok.tokenVersion);
    expect(kept.status).toBe('connected');
    expect(h.ctx.connectionStore.tokens(kept).refreshToken).toBe(tokens.refreshToken);
    await fetch(`${h.url}/sandbox/_faults`, { method: 'DELETE' });
  });

  it('runs one refresh at a time per connection: concurrent callers share it', async () => {
    const u = await h.signup();
    await connect(h, u, 'youtube');
    const before = await row(u, 'youtube');
    const calls = await refreshCalls('youtube', /\/token$/);
    const results = await Promise.all(Array.from({ length: 5 }, () => h.ctx.tokens.refresh(before, { force: true })));
    expect(new Set(results.map((r) => r.tokenVersion))).toEqual(new Set([before.tokenVersion + 1]));
    expect((await refreshCalls('youtube', /\/token$/)) - calls).toBe(1);
  });

  it('a revoked grant moves the connection to "needs reconnect", which every read reports', async () => {
    const u = await h.signup();
    await connect(h, u, 'tiktok');
    await fault(h, { platform: 'tiktok', operation: 'refresh', fault: 'revoke', times: 1 });
    await advance(3 * 3600_000, async () => {
      const profiles = (
        await h.req({
          method: 'GET',
          url: '/unified/user-profiles/?platforms=tiktok&force_refresh=true',
          headers: asUser(u),
        })
      ).json();
      expect(profiles.tiktok.connection).toMatchObject({ status: 'needs_reconnect', needs_reconnect: true });
      expect(profiles.tiktok.error).toMatch(/reconnect/i);
    });
    const status = (
      await h.req({ method: 'GET', url: '/unified/oauth/token?platform=tiktok', headers: asUser(u) })
    ).json();
    expect(status.results.tiktok.success).toBe(false);
    expect(status.results.tiktok.message).toMatch(/^TikTok needs to be reconnected/);
    const [ws] = (await h.req({ method: 'GET', url: '/workspaces', headers: bearer(u.token) })).json();
    expect(ws.tiktok_connected).toBe(false);
    // Connecting again restores it.
    await connect(h, u, 'tiktok');
    expect((await row(u, 'tiktok')).status).toBe('connected');
  });

  it("handles Bluesky's expired access token (HTTP 400 ExpiredToken) by refreshing the session", async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    const before = await row(u, 'bluesky');
    await fault(h, { platform: 'bluesky', operation: 'profile', fault: 'expire_token', times: 1 });
    const res = (
      await h.req({
        method: 'GET',
        url: '/unified/user-profiles/?platforms=bluesky&force_refresh=true',
        headers: asUser(u),
      })
    ).json();
    expect(res.bluesky.error).toBeUndefined();
    expect(res.bluesky.connection.status).toBe('connected');
    expect((await row(u, 'bluesky')).tokenVersion).toBe(before.tokenVersion + 1);
  });
});

describe('background refresh sweep', () => {
  it('refreshes connections expiring within the horizon and leaves the others', async () => {
    const u = await h.signup();
    await connect(h, u, 'tiktok'); // 2 h tokens
    await connect(h, u, 'pinterest'); // 30 d tokens
    const tiktok = await row(u, 'tiktok');
    const pinterest = await row(u, 'pinterest');
    const res = await h.ctx.tokens.sweep(24 * 3600_000);
    expect(res.failed).toBe(0);
    expect((await row(u, 'tiktok')).tokenVersion).toBe(tiktok.tokenVersion + 1);
    expect((await row(u, 'pinterest')).tokenVersion).toBe(pinterest.tokenVersion);
  });
});

describe('a grant without a refresh token (LinkedIn apps without programmatic refresh)', () => {
  const DAY = 24 * 3600_000;
  const strict = async (modes: Record<string, boolean>) => {
    const res = await fetch(`${h.url}/sandbox/_config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ strict: modes }),
    });
    if (!res.ok) throw new Error(`strict ${JSON.stringify(modes)}: ${res.status} ${await res.text()}`);
  };

  it('is not swept "needs reconnect" before its 60-day token expires: the user is warned, and it is marked once the token is dead', async () => {
    await strict({ linkedin_no_refresh: true });
    try {
      const u = await h.signup();
      await connect(h, u, 'linkedin');
      const connected = await row(u, 'linkedin');
      expect(h.ctx.connectionStore.tokens(connected).refreshToken).toBeNull();
      // Day 55: five days left, inside the sweep's seven-day horizon.
      await advance(55 * DAY, async () => {
        const res = await h.ctx.tokens.sweep();
        expect(res.warned).toBeGreaterThanOrEqual(1);
        const r = await row(u, 'linkedin');
        expect(r.status).toBe('connected');
        expect(r.statusReason).toMatch(/no refresh token.*reconnect before/);
        // The token is still used as it is (no refresh attempted, nothing marked).
        expect(await h.ctx.tokens.use(r, async (t) => t.accessToken)).toBe(
          h.ctx.connectionStore.tokens(connected).accessToken,
        );
        expect(await h.ctx.tokens.refresh(r, { force: true })).toMatchObject({
          id: r.id,
          status: 'connected',
          tokenVersion: r.tokenVersion,
        });
      });
      // The profile slice carries the warning (status_reason) while the connection stays connected.
      const profiles = (
        await h.req({ method: 'GET', url: '/unified/user-profiles/?platforms=linkedin', headers: asUser(u) })
      ).json();
      expect(profiles.linkedin.connection).toMatchObject({
        status: 'connected',
        needs_reconnect: false,
        status_reason: expect.stringMatching(/reconnect before/),
        // Without a refresh token, the connection ends with its access token.
        expires_at: connected.accessExpiresAt!.toISOString(),
      });
      // Day 61: the token is dead; now it needs a reconnect.
      await advance(61 * DAY, async () => {
        await h.ctx.tokens.sweep();
        expect((await row(u, 'linkedin')).status).toBe('needs_reconnect');
      });
    } finally {
      await strict({ linkedin_no_refresh: false });
    }
  });
});

describe("the server's own app credentials refused (invalid_client)", () => {
  it('keeps every connection (no "needs reconnect"), logs it and says so in the readiness report until a refresh works again', async () => {
    const u = await h.signup();
    await connect(h, u, 'linkedin');
    const before = await row(u, 'linkedin');
    const appsCheck = async () =>
      (
        (await h.req({ method: 'GET', url: '/readyz' })).json() as {
          checks: { name: string; ok: boolean; detail?: string }[];
        }
      ).checks.find((c) => c.name === 'network-apps');
    // The same, for an alert: a gauge on /metrics.
    const metric = async () => (await h.req({ method: 'GET', url: '/metrics' })).body;
    wrongSecret = true;
    try {
      await expect(h.ctx.tokens.refresh(before, { force: true })).rejects.toMatchObject({
        serverConfig: true,
        kind: 'permission',
      });
      expect((await row(u, 'linkedin')).status).toBe('connected');
      expect(await appsCheck()).toMatchObject({
        ok: true,
        detail: expect.stringMatching(/^linkedin: app credentials refused at /),
      });
      expect(await metric()).toContain('herald_network_app_credentials_refused{platform="linkedin"} 1');
    } finally {
      wrongSecret = false;
    }
    await h.ctx.tokens.refresh(before, { force: true });
    expect((await appsCheck())?.detail).toBeUndefined();
    expect(await metric()).not.toContain('herald_network_app_credentials_refused{');
  });
});

describe('merging extras on refresh', () => {
  it('replaces a whole group of extras and keeps the rest', async () => {
    const { mergeExtra } = await import('../../src/connections/tokens.ts');
    expect(mergeExtra({ 'page_token:1': 'a', 'page_token:2': 'b', did: 'd' }, { 'page_token:1': 'c' })).toEqual({
      'page_token:1': 'c',
      did: 'd',
    });
    expect(mergeExtra({ did: 'd', pds: 'p' }, undefined)).toEqual({ did: 'd', pds: 'p' });
  });
});

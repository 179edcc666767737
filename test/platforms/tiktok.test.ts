import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TIKTOK_CAPABILITIES, TIKTOK_SCOPES, tiktokAdapter } from '../../src/platforms/tiktok/index.ts';
import type { PlatformAdapter, OAuth2Auth, TokenSet } from '../../src/platforms/types.ts';
import { approve, cannedDeps, connectThrough, expectPlatformError, sandboxDeps } from './helpers/oauth-flow.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';

let sb: TestSandbox;
let adapter: PlatformAdapter;
let auth: OAuth2Auth;
const redirectUri = (): string => sb.callback('tiktok');
const secretsOf = (t: TokenSet): string[] => [t.accessToken, t.refreshToken ?? ''];

const connect = (state = 'st-tiktok'): Promise<TokenSet> => connectThrough(sb, adapter, state);

/** An adapter whose HTTP answers are canned, for wire details the sandbox cannot produce. */
const cannedAdapter = (status: number, body: unknown, headers: Record<string, string> = {}): PlatformAdapter =>
  tiktokAdapter(cannedDeps({ status, body, headers }, { clientId: 'ck' }));

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  adapter = tiktokAdapter(sandboxDeps(sb, 'tiktok'));
  auth = adapter.auth as OAuth2Auth;
});

describe('tiktok adapter: setup', () => {
  it('declares its capabilities, configuration and the real hosts by default', () => {
    expect(adapter).toMatchObject({ platform: 'tiktok', configured: true, capabilities: TIKTOK_CAPABILITIES });
    expect(TIKTOK_CAPABILITIES).toEqual({
      postTypes: ['image', 'carousel', 'video'],
      text: { max: 2200, unit: 'utf16' },
      asyncProcessing: true,
    });
    expect(auth).toMatchObject({ kind: 'oauth2', pkce: false });
    const real = tiktokAdapter({
      ...sandboxDeps(sb, 'tiktok'),
      config: { clientId: 'ck', clientSecret: 'cs', urls: {} },
    });
    const url = new URL(
      (real.auth as OAuth2Auth).authorizeUrl({
        state: 's1',
        redirectUri: 'https://herald.example/tiktok/oauth/callback',
      }),
    );
    expect(`${url.origin}${url.pathname}`).toBe('https://www.tiktok.com/v2/auth/authorize/');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_key: 'ck',
      response_type: 'code',
      scope: TIKTOK_SCOPES.join(','),
      redirect_uri: 'https://herald.example/tiktok/oauth/callback',
      state: 's1',
    });
  });

  it('is not configured without a client key and secret, and refuses to start a flow', () => {
    const bare = tiktokAdapter({ ...sandboxDeps(sb, 'tiktok'), config: { clientId: 'ck', urls: {} } });
    expect(bare.configured).toBe(false);
    expect(() => (bare.auth as OAuth2Auth).authorizeUrl({ state: 's', redirectUri: redirectUri() })).toThrow(
      /not configured/,
    );
  });
});

describe('tiktok adapter: token lifecycle against the sandbox', () => {
  it('connects, reads the profile, refreshes with rotation and revokes', async () => {
    const approval = await approve(auth.authorizeUrl({ state: 'st-1', redirectUri: redirectUri() }));
    expect(approval.state).toBe('st-1');
    const tokens = await auth.exchangeCode({ code: approval.code, redirectUri: redirectUri() });
    expect(tokens.accessToken).toMatch(/^act\./);
    expect(tokens.refreshToken).toMatch(/^rft\./);
    expect(tokens.expiresAt?.getTime()).toBe(sb.clock().getTime() + 7200 * 1000);
    expect(tokens.refreshExpiresAt?.getTime()).toBe(sb.clock().getTime() + 15_552_000 * 1000);
    expect(tokens.scopes).toEqual([...TIKTOK_SCOPES]);

    const account = await adapter.fetchAccount(tokens);
    expect(account).toMatchObject({
      id: tokens.extra?.open_id,
      name: 'Sandbox User',
      username: 'sandbox.user',
      destinations: [],
    });
    expect(account.slice).toEqual({
      profile: {
        display_name: 'Sandbox User',
        username: 'sandbox.user',
        bio_description: 'Short videos from the Herald sandbox.',
        is_verified: false,
        followers_count: 4821,
        following_count: 97,
        total_likes: 30412,
        videos_count: 58,
        profile_deep_link: expect.stringMatching(/^https:\/\/vm\.tiktok\.com\//),
        avatar_url: expect.stringContaining('/_sandbox/avatar/'),
      },
    });

    sb.advance(7200);
    await expectPlatformError(adapter.fetchAccount(tokens), 'auth_expired', secretsOf(tokens));
    const refreshed = await auth.refresh!(tokens);
    expect(refreshed.refreshToken).not.toBe(tokens.refreshToken);
    expect(refreshed.expiresAt?.getTime()).toBe(sb.clock().getTime() + 7200 * 1000);
    expect(refreshed.refreshExpiresAt?.getTime()).toBe(sb.clock().getTime() + 15_552_000 * 1000);
    expect(refreshed.extra?.open_id).toBe(account.id);
    expect((await adapter.fetchAccount(refreshed)).id).toBe(account.id);
    // The rotated-out refresh token is dead.
    await expectPlatformError(auth.refresh!(tokens), 'reauth_required', secretsOf(tokens));

    await auth.revoke!(refreshed);
    // TikTok answers access_token_invalid for revoked and expired tokens alike; the refresh tells them apart.
    await expectPlatformError(adapter.fetchAccount(refreshed), 'auth_expired', secretsOf(refreshed));
    await expectPlatformError(auth.refresh!(refreshed), 'reauth_required', secretsOf(refreshed));
  });

  it('revokes with an expired access token by refreshing first', async () => {
    const tokens = await connect();
    sb.advance(7300);
    await auth.revoke!(tokens);
    await expectPlatformError(auth.refresh!(tokens), 'reauth_required', secretsOf(tokens));
  });

  it('asks only for the user.info fields of the tiers the user granted', async () => {
    const url = new URL(auth.authorizeUrl({ state: 's', redirectUri: redirectUri() }));
    url.searchParams.set('scope', 'user.info.basic,video.publish');
    const { code } = await approve(url.toString());
    const tokens = await auth.exchangeCode({ code, redirectUri: redirectUri() });
    expect(tokens.scopes).toEqual(['user.info.basic', 'video.publish']);
    const account = await adapter.fetchAccount(tokens);
    expect(account.slice.profile).toMatchObject({
      display_name: 'Sandbox User',
      username: null,
      followers_count: null,
      is_verified: null,
    });
  });

  it('rejects a wrong code, a wrong redirect_uri and wrong app credentials', async () => {
    await expectPlatformError(auth.exchangeCode({ code: 'not-a-code', redirectUri: redirectUri() }), 'reauth_required');
    const { code } = await approve(auth.authorizeUrl({ state: 's', redirectUri: redirectUri() }));
    const wrong = await expectPlatformError(
      auth.exchangeCode({ code, redirectUri: `${sb.publicUrl}/elsewhere/tiktok/oauth/callback` }),
      'reauth_required',
      [code],
    );
    expect(wrong).toMatchObject({ code: 'invalid_grant', status: 400 });
    const badApp = tiktokAdapter({
      ...sandboxDeps(sb, 'tiktok'),
      config: { ...sandboxDeps(sb, 'tiktok').config, clientSecret: 'nope' },
    });
    await expectPlatformError(
      (badApp.auth as OAuth2Auth).exchangeCode({ code, redirectUri: redirectUri() }),
      'permission',
      [code],
    );
  });
});

describe('tiktok adapter: injected faults', () => {
  it('maps rate limits, server errors, expiry and revocation on the profile read', async () => {
    const tokens = await connect();
    const secrets = secretsOf(tokens);
    await sb.fault({ platform: 'tiktok', operation: 'profile', fault: 'rate_limit' });
    expect(await expectPlatformError(adapter.fetchAccount(tokens), 'rate_limited', secrets)).toMatchObject({
      code: 'rate_limit_exceeded',
      status: 429,
    });
    await sb.fault({ platform: 'tiktok', operation: 'profile', fault: 'server_error' });
    const down = await expectPlatformError(adapter.fetchAccount(tokens), 'transient', secrets);
    expect(down.retryable).toBe(true);
    await sb.fault({ platform: 'tiktok', operation: 'profile', fault: 'expire_token' });
    await expectPlatformError(adapter.fetchAccount(tokens), 'auth_expired', secrets);
    const fresh = await auth.refresh!(tokens);
    await sb.fault({ platform: 'tiktok', operation: 'profile', fault: 'revoke' });
    await expectPlatformError(adapter.fetchAccount(fresh), 'auth_expired', secretsOf(fresh));
    await expectPlatformError(auth.refresh!(fresh), 'reauth_required', secretsOf(fresh));
  });

  it('maps token endpoint faults on exchange and refresh', async () => {
    const { code } = await approve(auth.authorizeUrl({ state: 's', redirectUri: redirectUri() }));
    await sb.fault({ platform: 'tiktok', operation: 'token', fault: 'rate_limit' });
    await expectPlatformError(auth.exchangeCode({ code, redirectUri: redirectUri() }), 'rate_limited', [code]);
    const tokens = await auth.exchangeCode({ code, redirectUri: redirectUri() });
    await sb.fault({ platform: 'tiktok', operation: 'refresh', fault: 'server_error' });
    await expectPlatformError(auth.refresh!(tokens), 'transient', secretsOf(tokens));
    await sb.fault({ platform: 'tiktok', operation: 'refresh', fault: 'revoke' });
    await expectPlatformError(auth.refresh!(tokens), 'reauth_required', secretsOf(tokens));
    await expectPlatformError(adapter.fetchAccount(tokens), 'auth_expired', secretsOf(tokens));
  });
});

describe('tiktok adapter: wire details', () => {
  it('reads an OAuth error sent with HTTP 200 as a failure', async () => {
    const canned = cannedAdapter(200, {
      error: 'invalid_grant',
      error_description: 'Authorization code is expired.',
      log_id: 'x',
    });
    const err = await expectPlatformError(
      (canned.auth as OAuth2Auth).exchangeCode({ code: 'c', redirectUri: 'https://h.example/cb' }),
      'reauth_required',
    );
    expect(err.message).toContain('Authorization code is expired.');
  });

  it('passes Retry-After through, and reads daily posting caps as a day-long rate limit', async () => {
    const limited = cannedAdapter(
      429,
      { data: {}, error: { code: 'rate_limit_exceeded', message: 'slow down', log_id: 'x' } },
      { 'retry-after': '42' },
    );
    expect(
      await expectPlatformError(limited.fetchAccount({ accessToken: 'act.secret' }), 'rate_limited', ['act.secret']),
    ).toMatchObject({ retryAfterSeconds: 42 });
    const capped = cannedAdapter(403, {
      data: {},
      error: { code: 'spam_risk_too_many_posts', message: 'cap', log_id: 'x' },
    });
    expect(await expectPlatformError(capped.fetchAccount({ accessToken: 'act.secret' }), 'rate_limited')).toMatchObject(
      { retryAfterSeconds: 86_400 },
    );
    const scope = cannedAdapter(401, { data: {}, error: { code: 'scope_not_authorized', message: 'no', log_id: 'x' } });
    await expectPlatformError(scope.fetchAccount({ accessToken: 'act.secret' }), 'permission');
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configuredHttp } from '../helpers/platform-http.ts';
import { LINKEDIN_SCOPES, linkedinAdapter } from '../../src/platforms/linkedin/index.ts';
import type { OAuth2Auth, PlatformAdapter, TokenSet } from '../../src/platforms/types.ts';
import { SANDBOX_APPS } from '../../src/sandbox/index.ts';
import { approve, cannedDeps, expectPlatformError, sandboxDeps } from './helpers/oauth-flow.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';

const ACCESS_TTL = 5_184_000;
const REFRESH_TTL = 31_536_000;
let sb: TestSandbox;
let adapter: PlatformAdapter;
let auth: OAuth2Auth;
const redirectUri = (): string => sb.callback('linkedin');
const secretsOf = (t: TokenSet): string[] => [t.accessToken, t.refreshToken ?? '', SANDBOX_APPS.linkedin.clientSecret];

async function connect(scope?: string): Promise<TokenSet> {
  const url = new URL(auth.authorizeUrl({ state: 'st-li', redirectUri: redirectUri() }));
  if (scope) url.searchParams.set('scope', scope);
  const { code } = await approve(url.toString());
  return auth.exchangeCode({ code, redirectUri: redirectUri() });
}

/** An adapter whose HTTP answers are canned, for wire details the sandbox cannot produce. */
const canned = (status: number, body: unknown, headers: Record<string, string> = {}): PlatformAdapter =>
  linkedinAdapter(cannedDeps({ status, body, headers }));

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  adapter = linkedinAdapter(sandboxDeps(sb, 'linkedin'));
  auth = adapter.auth as OAuth2Auth;
});

describe('linkedin adapter: setup', () => {
  it('declares capabilities, no PKCE, and builds the authorize URL on the real host by default', () => {
    expect(adapter).toMatchObject({
      platform: 'linkedin',
      configured: true,
      capabilities: {
        postTypes: ['text', 'image', 'carousel', 'video'],
        text: { max: 3000, unit: 'utf16' },
        asyncProcessing: true,
      },
    });
    expect(auth).toMatchObject({ kind: 'oauth2', pkce: false });
    const real = linkedinAdapter({
      ...sandboxDeps(sb, 'linkedin'),
      config: { clientId: 'ci', clientSecret: 'cs', urls: {} },
    });
    const raw = (real.auth as OAuth2Auth).authorizeUrl({
      state: 's1',
      redirectUri: 'https://herald.example/linkedin/oauth/callback',
      codeChallenge: 'x'.repeat(43),
    });
    expect(raw).toContain('scope=openid%20profile%20');
    const url = new URL(raw);
    expect(`${url.origin}${url.pathname}`).toBe('https://www.linkedin.com/oauth/v2/authorization');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'ci',
      redirect_uri: 'https://herald.example/linkedin/oauth/callback',
      state: 's1',
      scope: LINKEDIN_SCOPES.join(' '),
    });
  });

  it('is not configured without a client secret and refuses to start a flow', () => {
    const bare = linkedinAdapter({ ...sandboxDeps(sb, 'linkedin'), config: { clientId: 'ci', urls: {} } });
    expect(bare.configured).toBe(false);
    expect(() => (bare.auth as OAuth2Auth).authorizeUrl({ state: 's', redirectUri: redirectUri() })).toThrow(
      /not configured/,
    );
  });
});

describe('linkedin adapter: token lifecycle against the sandbox', () => {
  it('connects, reads member and organizations, refreshes and revokes', async () => {
    await sb.lenient('linkedin_no_refresh'); // an app with programmatic refresh tokens
    const approval = await approve(auth.authorizeUrl({ state: 'st-1', redirectUri: redirectUri() }));
    expect(approval.state).toBe('st-1');
    const tokens = await auth.exchangeCode({ code: approval.code, redirectUri: redirectUri() });
    const t0 = sb.clock().getTime();
    expect(tokens.accessToken).toMatch(/^AQV/);
    expect(tokens.refreshToken).toMatch(/^AQX/);
    expect(tokens.expiresAt?.getTime()).toBe(t0 + ACCESS_TTL * 1000);
    expect(tokens.refreshExpiresAt?.getTime()).toBe(t0 + REFRESH_TTL * 1000);
    expect(tokens.scopes).toEqual([...LINKEDIN_SCOPES]);

    const account = await adapter.fetchAccount(tokens);
    expect(account).toMatchObject({
      name: 'Sandbox User',
      username: 'sandbox-user',
      avatarUrl: expect.stringContaining('/_sandbox/avatar/'),
    });
    const orgIds = account.destinations.map((d) => d.id);
    expect(orgIds).toHaveLength(2);
    for (const id of orgIds) expect(id).toMatch(/^\d+$/);
    expect(account.destinations[0]).toMatchObject({
      kind: 'organization',
      name: 'User Consulting',
      meta: { urn: `urn:li:organization:${orgIds[0]}`, role: 'ADMINISTRATOR' },
    });
    expect(account.slice).toEqual({
      profile: {
        name: 'Sandbox User',
        given_name: 'Sandbox',
        family_name: 'User',
        vanity_name: 'sandbox-user',
        profile_url: 'https://www.linkedin.com/in/sandbox-user',
        picture: account.avatarUrl,
      },
      organizations: [
        {
          page_id: `urn:li:organization:${orgIds[0]}`,
          numeric_id: orgIds[0],
          page_name: 'User Consulting',
          localized_name: 'User Consulting',
          vanity_name: 'sandbox-user-consulting',
          logo_url: null,
          role: 'ADMINISTRATOR',
        },
        {
          page_id: `urn:li:organization:${orgIds[1]}`,
          numeric_id: orgIds[1],
          page_name: 'Sandbox User Foundation',
          localized_name: 'Sandbox User Foundation',
          vanity_name: 'sandbox-user-foundation',
          logo_url: null,
          role: 'ADMINISTRATOR',
        },
      ],
      include_personal: true,
      selection_mode: false,
      connections: [
        {
          kind: 'personal',
          destination_key: `urn:li:person:${account.id}`,
          page_id: null,
          display_name: 'Sandbox User',
          avatar_url: account.avatarUrl,
        },
        {
          kind: 'page',
          destination_key: `urn:li:organization:${orgIds[0]}`,
          page_id: `urn:li:organization:${orgIds[0]}`,
          display_name: 'User Consulting',
          avatar_url: null,
        },
        {
          kind: 'page',
          destination_key: `urn:li:organization:${orgIds[1]}`,
          page_id: `urn:li:organization:${orgIds[1]}`,
          display_name: 'Sandbox User Foundation',
          avatar_url: null,
        },
      ],
    });

    sb.advance(ACCESS_TTL);
    await expectPlatformError(adapter.fetchAccount(tokens), 'auth_expired', secretsOf(tokens));
    const refreshed = await auth.refresh!(tokens);
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    // LinkedIn hands back the same refresh token, whose 365-day life does not restart.
    expect(refreshed.refreshToken).toBe(tokens.refreshToken);
    expect(refreshed.expiresAt?.getTime()).toBe(sb.clock().getTime() + ACCESS_TTL * 1000);
    expect(refreshed.refreshExpiresAt?.getTime()).toBe(tokens.refreshExpiresAt?.getTime());
    expect((await adapter.fetchAccount(refreshed)).id).toBe(account.id);

    await auth.revoke!(refreshed);
    await expectPlatformError(adapter.fetchAccount(refreshed), 'reauth_required', secretsOf(refreshed));
    await expectPlatformError(auth.refresh!(refreshed), 'reauth_required', secretsOf(refreshed));
  });

  it('connects a member who granted no organization or r_basicprofile scope', async () => {
    const tokens = await connect('openid profile w_member_social');
    const account = await adapter.fetchAccount(tokens);
    expect(account.destinations).toEqual([]);
    expect(account.slice).toMatchObject({
      profile: { name: 'Sandbox User', vanity_name: null, profile_url: null },
      organizations: [],
    });
    expect(account.slice.connections).toHaveLength(1);
  });

  it('rejects a wrong code, a wrong redirect_uri, wrong app credentials and a missing refresh token', async () => {
    await expectPlatformError(auth.exchangeCode({ code: 'not-a-code', redirectUri: redirectUri() }), 'reauth_required');
    const { code } = await approve(auth.authorizeUrl({ state: 's', redirectUri: redirectUri() }));
    const wrong = await expectPlatformError(
      auth.exchangeCode({ code, redirectUri: `${sb.publicUrl}/elsewhere/linkedin/oauth/callback` }),
      'reauth_required',
      [code],
    );
    expect(wrong).toMatchObject({ status: 400, code: 'invalid_request' });
    const deps = sandboxDeps(sb, 'linkedin');
    const badApp = linkedinAdapter({ ...deps, config: { ...deps.config, clientSecret: 'nope' } });
    await expectPlatformError(
      (badApp.auth as OAuth2Auth).exchangeCode({ code, redirectUri: redirectUri() }),
      'permission',
      [code],
    );
    const tokens = await auth.exchangeCode({ code, redirectUri: redirectUri() });
    await expectPlatformError(auth.refresh!({ accessToken: tokens.accessToken }), 'reauth_required', secretsOf(tokens));
  });
});

describe('linkedin adapter: injected faults', () => {
  it('maps rate limits, server errors, expiry and revocation on identity and organization reads', async () => {
    await sb.lenient('linkedin_no_refresh'); // an app with programmatic refresh tokens
    const tokens = await connect();
    const secrets = secretsOf(tokens);
    await sb.fault({ platform: 'linkedin', operation: 'profile', fault: 'rate_limit' });
    const limited = await expectPlatformError(adapter.fetchAccount(tokens), 'rate_limited', secrets);
    // LinkedIn documents no Retry-After on its daily quotas, and the sandbox sends none: they reset at 00:00 UTC,
    // 12 hours after the sandbox's noon.
    expect(limited).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS', retryAfterSeconds: 12 * 3600 });
    await sb.fault({ platform: 'linkedin', operation: 'pages', fault: 'rate_limit' });
    await expectPlatformError(adapter.fetchAccount(tokens), 'rate_limited', secrets);
    await sb.fault({ platform: 'linkedin', operation: 'pages', fault: 'server_error' });
    expect((await expectPlatformError(adapter.fetchAccount(tokens), 'transient', secrets)).retryable).toBe(true);
    await sb.fault({ platform: 'linkedin', operation: 'profile', fault: 'expire_token' });
    await expectPlatformError(adapter.fetchAccount(tokens), 'auth_expired', secrets);
    const fresh = await auth.refresh!(tokens);
    expect((await adapter.fetchAccount(fresh)).destinations).toHaveLength(2);
    await sb.fault({ platform: 'linkedin', operation: 'profile', fault: 'revoke' });
    expect(await expectPlatformError(adapter.fetchAccount(fresh), 'reauth_required', secretsOf(fresh))).toMatchObject({
      code: 'REVOKED_ACCESS_TOKEN',
    });
  });

  it('maps token endpoint faults on exchange and refresh', async () => {
    await sb.lenient('linkedin_no_refresh'); // an app with programmatic refresh tokens
    const { code } = await approve(auth.authorizeUrl({ state: 's', redirectUri: redirectUri() }));
    await sb.fault({ platform: 'linkedin', operation: 'token', fault: 'rate_limit' });
    await expectPlatformError(auth.exchangeCode({ code, redirectUri: redirectUri() }), 'rate_limited', [code]);
    await sb.fault({ platform: 'linkedin', operation: 'token', fault: 'server_error' });
    await expectPlatformError(auth.exchangeCode({ code, redirectUri: redirectUri() }), 'transient', [code]);
    const tokens = await auth.exchangeCode({ code, redirectUri: redirectUri() });
    await sb.fault({ platform: 'linkedin', operation: 'refresh', fault: 'expire_token' });
    await expectPlatformError(auth.refresh!(tokens), 'reauth_required', secretsOf(tokens));
    const other = await connect();
    await sb.fault({ platform: 'linkedin', operation: 'refresh', fault: 'revoke' });
    await expectPlatformError(auth.refresh!(other), 'reauth_required', secretsOf(other));
    await expectPlatformError(adapter.fetchAccount(other), 'reauth_required', secretsOf(other));
  });

  it('gives up on a held request as transient', async () => {
    const tokens = await connect();
    const deps = sandboxDeps(sb, 'linkedin');
    // A connection pool of its own, destroyed at the end: the abandoned request's socket is otherwise left open and
    // holds up the server's close for its ~70 s keep-alive timeout.
    const http = configuredHttp(deps.logger, deps.config.urls, { timeoutMs: 300 });
    const impatient = linkedinAdapter({ ...deps, http });
    await sb.fault({ platform: 'linkedin', operation: 'profile', fault: 'timeout' });
    try {
      await expectPlatformError(impatient.fetchAccount(tokens), 'transient', secretsOf(tokens));
    } finally {
      await http.close();
    }
  });
});

describe('linkedin adapter: wire details', () => {
  it('passes Retry-After through and reads token-state codes', async () => {
    const limited = canned(429, { status: 429, code: 'TOO_MANY_REQUESTS', message: 'slow' }, { 'retry-after': '30' });
    expect(
      await expectPlatformError(limited.fetchAccount({ accessToken: 'AQVsecret' }), 'rate_limited', ['AQVsecret']),
    ).toMatchObject({ retryAfterSeconds: 30 });
    const expired = canned(401, {
      status: 401,
      serviceErrorCode: 65601,
      message: 'The token used in the request has expired',
    });
    await expectPlatformError(expired.fetchAccount({ accessToken: 'AQVsecret' }), 'auth_expired', ['AQVsecret']);
    const sunset = canned(426, {
      status: 426,
      code: 'NONEXISTENT_VERSION',
      message: 'Requested version 202509 is not active',
    });
    await expectPlatformError(sunset.fetchAccount({ accessToken: 'AQVsecret' }), 'unsupported');
    const grant = canned(400, {
      error: 'invalid_grant',
      error_description: 'The provided authorization grant is invalid',
    });
    await expectPlatformError(
      (grant.auth as OAuth2Auth).refresh!({ accessToken: 'a', refreshToken: 'AQXsecret' }),
      'reauth_required',
      ['AQXsecret'],
    );
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { THREADS_API_VERSION, THREADS_SCOPES, threadsAdapter } from '../../src/platforms/threads/index.ts';
import type { OAuth2Auth, PlatformAdapter, TokenSet } from '../../src/platforms/types.ts';
import { SANDBOX_APPS } from '../../src/sandbox/index.ts';
import { approve, cannedDeps, connectThrough, expectPlatformError, sandboxDeps } from './helpers/oauth-flow.ts';
import type { Canned } from './helpers/oauth-flow.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';

const LONG_TTL = 5_183_944;
const DAY = 86_400;
let sb: TestSandbox;
let adapter: PlatformAdapter;
let auth: OAuth2Auth;
const redirectUri = (): string => sb.callback('threads');
const secretsOf = (t: TokenSet): string[] => [t.accessToken, SANDBOX_APPS.threads.clientSecret];

const connect = (): Promise<TokenSet> => connectThrough(sb, adapter, 'st-th');

/** An adapter whose HTTP answers are canned per path, for endpoints the sandbox does not serve. */
const canned = (routes: Record<string, Canned>): PlatformAdapter =>
  threadsAdapter(cannedDeps((url) => routes[url.pathname] ?? { status: 404, body: {} }, { clock: () => new Date(0) }));

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  adapter = threadsAdapter(sandboxDeps(sb, 'threads'));
  auth = adapter.auth as OAuth2Auth;
});

describe('threads adapter: setup', () => {
  it('declares capabilities, no PKCE and no revocation, and builds the authorize URL on the real host by default', () => {
    expect(adapter).toMatchObject({
      platform: 'threads',
      configured: true,
      capabilities: {
        postTypes: ['text', 'image', 'carousel', 'video'],
        text: { max: 500, unit: 'graphemes' },
        asyncProcessing: true,
      },
    });
    expect(auth).toMatchObject({ kind: 'oauth2', pkce: false });
    expect(auth.revoke).toBeUndefined();
    const real = threadsAdapter({
      ...sandboxDeps(sb, 'threads'),
      config: { clientId: 'ci', clientSecret: 'cs', urls: {} },
    });
    const url = new URL(
      (real.auth as OAuth2Auth).authorizeUrl({
        state: 's1',
        redirectUri: 'https://herald.example/threads/oauth/callback',
      }),
    );
    expect(`${url.origin}${url.pathname}`).toBe('https://threads.net/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'ci',
      redirect_uri: 'https://herald.example/threads/oauth/callback',
      scope: THREADS_SCOPES.join(','),
      response_type: 'code',
      state: 's1',
    });
    const bare = threadsAdapter({ ...sandboxDeps(sb, 'threads'), config: { clientId: 'ci', urls: {} } });
    expect(bare.configured).toBe(false);
    expect(() => (bare.auth as OAuth2Auth).authorizeUrl({ state: 's', redirectUri: redirectUri() })).toThrow(
      /not configured/,
    );
  });
});

describe('threads adapter: token lifecycle against the sandbox', () => {
  it('connects with a 60-day token, reads the profile, refreshes after a day and dies at day 60', async () => {
    const approval = await approve(auth.authorizeUrl({ state: 'st-1', redirectUri: redirectUri() }));
    expect(approval.state).toBe('st-1');
    const tokens = await auth.exchangeCode({ code: approval.code, redirectUri: redirectUri() });
    expect(tokens.accessToken).toMatch(/^THAA/);
    expect(tokens.refreshToken).toBeNull();
    expect(tokens.expiresAt?.getTime()).toBe(sb.clock().getTime() + LONG_TTL * 1000);

    const account = await adapter.fetchAccount(tokens);
    expect(account).toMatchObject({
      id: expect.stringMatching(/^3\d{15}$/),
      name: 'Sandbox User',
      username: 'sandbox_user',
      destinations: [],
    });
    expect(account.slice).toEqual({
      profile: {
        username: 'sandbox_user',
        full_name: 'Sandbox User',
        biography: 'Sandbox User posting from the Herald sandbox.',
        // The sandbox does not serve threads_insights, where the follower count lives.
        followers_count: null,
        following_count: null,
        posts_count: null,
        is_verified: false,
        website_url: null,
        created_at: null,
        profile_picture_url: account.avatarUrl,
      },
    });

    await expectPlatformError(auth.refresh!(tokens), 'invalid_content', secretsOf(tokens));
    sb.advance(DAY + 60);
    const refreshed = await auth.refresh!(tokens);
    expect(refreshed.accessToken).toMatch(/^THAA/);
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    expect(refreshed.expiresAt?.getTime()).toBe(sb.clock().getTime() + LONG_TTL * 1000);
    expect((await adapter.fetchAccount(refreshed)).id).toBe(account.id);

    sb.advance(LONG_TTL);
    await expectPlatformError(adapter.fetchAccount(refreshed), 'auth_expired', secretsOf(refreshed));
    await expectPlatformError(auth.refresh!(refreshed), 'reauth_required', secretsOf(refreshed));
  });

  it('rejects a wrong code, a wrong redirect_uri and wrong app credentials', async () => {
    await expectPlatformError(auth.exchangeCode({ code: 'not-a-code', redirectUri: redirectUri() }), 'reauth_required');
    const { code } = await approve(auth.authorizeUrl({ state: 's', redirectUri: redirectUri() }));
    const wrong = await expectPlatformError(
      auth.exchangeCode({ code, redirectUri: `${sb.publicUrl}/elsewhere/threads/oauth/callback` }),
      'reauth_required',
      [code],
    );
    expect(wrong).toMatchObject({ status: 400, code: '100' });
    const deps = sandboxDeps(sb, 'threads');
    const badApp = threadsAdapter({ ...deps, config: { ...deps.config, clientSecret: 'nope' } });
    await expectPlatformError(
      (badApp.auth as OAuth2Auth).exchangeCode({ code, redirectUri: redirectUri() }),
      'permission',
      [code],
    );
    const tokens = await auth.exchangeCode({ code, redirectUri: redirectUri() });
    await expectPlatformError(auth.exchangeCode({ code, redirectUri: redirectUri() }), 'reauth_required', [
      code,
      tokens.accessToken,
    ]);
  });
});

describe('threads adapter: injected faults', () => {
  it('maps rate limits, server errors, expiry and revocation on the profile read', async () => {
    const tokens = await connect();
    const secrets = secretsOf(tokens);
    await sb.fault({ platform: 'threads', operation: 'profile', fault: 'rate_limit' });
    expect(await expectPlatformError(adapter.fetchAccount(tokens), 'rate_limited', secrets)).toMatchObject({
      code: '4',
      retryAfterSeconds: undefined,
    });
    await sb.fault({ platform: 'threads', operation: 'profile', fault: 'server_error' });
    await expectPlatformError(adapter.fetchAccount(tokens), 'transient', secrets);
    await sb.fault({ platform: 'threads', operation: 'profile', fault: 'expire_token' });
    await expectPlatformError(adapter.fetchAccount(tokens), 'auth_expired', secrets);

    const other = await connect();
    await sb.fault({ platform: 'threads', operation: 'profile', fault: 'revoke' });
    await expectPlatformError(adapter.fetchAccount(other), 'reauth_required', secretsOf(other));
  });

  it('maps token endpoint faults on exchange, the long-lived swap and refresh', async () => {
    const { code } = await approve(auth.authorizeUrl({ state: 's', redirectUri: redirectUri() }));
    await sb.fault({ platform: 'threads', operation: 'token', fault: 'rate_limit' });
    await expectPlatformError(auth.exchangeCode({ code, redirectUri: redirectUri() }), 'rate_limited', [code]);
    await sb.fault({ platform: 'threads', operation: 'token', fault: 'expire_token' });
    await expectPlatformError(auth.exchangeCode({ code, redirectUri: redirectUri() }), 'reauth_required', [code]);
    const tokens = await connect();
    sb.advance(DAY + 60);
    await sb.fault({ platform: 'threads', operation: 'refresh', fault: 'rate_limit' });
    await expectPlatformError(auth.refresh!(tokens), 'rate_limited', secretsOf(tokens));
    await sb.fault({ platform: 'threads', operation: 'refresh', fault: 'expire_token' });
    await expectPlatformError(auth.refresh!(tokens), 'reauth_required', secretsOf(tokens));
  });
});

describe('threads adapter: wire details', () => {
  it('reads the follower count from user insights when Threads serves it', async () => {
    const id = '31234567890123456';
    const withInsights = canned({
      [`/${THREADS_API_VERSION}/me`]: {
        status: 200,
        body: { id, username: 'someone', name: 'Some One', is_verified: true },
      },
      [`/${THREADS_API_VERSION}/${id}/threads_insights`]: {
        status: 200,
        body: {
          data: [
            {
              name: 'followers_count',
              period: 'day',
              title: 'followers_count',
              total_value: { value: 1234 },
              id: `${id}/insights/followers_count/day`,
            },
          ],
        },
      },
    });
    const account = await withInsights.fetchAccount({ accessToken: 'THAAsecret' });
    expect(account.slice.profile).toMatchObject({
      username: 'someone',
      full_name: 'Some One',
      followers_count: 1234,
      is_verified: true,
      biography: null,
    });
  });

  it('reads HTTP 429 and permission errors', async () => {
    const path = `/${THREADS_API_VERSION}/me`;
    const limited = canned({
      [path]: { status: 429, body: { error: { message: 'Too many calls', type: 'OAuthException' } } },
    });
    await expectPlatformError(limited.fetchAccount({ accessToken: 'THAAsecret' }), 'rate_limited', ['THAAsecret']);
    const denied = canned({
      [path]: {
        status: 403,
        body: { error: { message: '(#10) Application does not have permission for this action', code: 10 } },
      },
    });
    await expectPlatformError(denied.fetchAccount({ accessToken: 'THAAsecret' }), 'permission', ['THAAsecret']);
  });
});

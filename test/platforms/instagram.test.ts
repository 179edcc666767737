import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { INSTAGRAM_GRAPH_VERSION, INSTAGRAM_SCOPES, instagramAdapter } from '../../src/platforms/instagram/index.ts';
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
const redirectUri = (): string => sb.callback('instagram');
const secretsOf = (t: TokenSet): string[] => [t.accessToken, SANDBOX_APPS.instagram.clientSecret];

const connect = (): Promise<TokenSet> => connectThrough(sb, adapter, 'st-ig');

/** An adapter whose HTTP answers are canned per path, for shapes the sandbox does not produce. */
const canned = (routes: Record<string, Canned>): PlatformAdapter =>
  instagramAdapter(
    cannedDeps((url) => routes[url.pathname] ?? { status: 404, body: {} }, { clock: () => new Date(0) }),
  );

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  adapter = instagramAdapter(sandboxDeps(sb, 'instagram'));
  auth = adapter.auth as OAuth2Auth;
});

describe('instagram adapter: setup', () => {
  it('declares capabilities, no PKCE and no revocation, and builds the Instagram Login URL by default', () => {
    expect(adapter).toMatchObject({
      platform: 'instagram',
      configured: true,
      capabilities: {
        postTypes: ['image', 'carousel', 'video'],
        text: { max: 2200, unit: 'utf16' },
        asyncProcessing: true,
      },
    });
    expect(auth).toMatchObject({ kind: 'oauth2', pkce: false });
    expect(auth.revoke).toBeUndefined();
    const real = instagramAdapter({
      ...sandboxDeps(sb, 'instagram'),
      config: { clientId: 'ci', clientSecret: 'cs', urls: {} },
    });
    const url = new URL(
      (real.auth as OAuth2Auth).authorizeUrl({
        state: 's1',
        redirectUri: 'https://herald.example/instagram/oauth/callback',
      }),
    );
    expect(`${url.origin}${url.pathname}`).toBe('https://www.instagram.com/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'ci',
      redirect_uri: 'https://herald.example/instagram/oauth/callback',
      response_type: 'code',
      scope: INSTAGRAM_SCOPES.join(','),
      state: 's1',
    });
    const bare = instagramAdapter({ ...sandboxDeps(sb, 'instagram'), config: { urls: {} } });
    expect(bare.configured).toBe(false);
    expect(() => (bare.auth as OAuth2Auth).authorizeUrl({ state: 's', redirectUri: redirectUri() })).toThrow(
      /not configured/,
    );
  });
});

describe('instagram adapter: token lifecycle against the sandbox', () => {
  it('connects with a 60-day token, reads the professional account, refreshes after a day and dies at day 60', async () => {
    const approval = await approve(auth.authorizeUrl({ state: 'st-1', redirectUri: redirectUri() }));
    expect(approval.state).toBe('st-1');
    expect(approval.location.hash).toBe('#_');
    // A callback that kept Instagram's `#_` suffix still exchanges.
    const tokens = await auth.exchangeCode({ code: `${approval.code}#_`, redirectUri: redirectUri() });
    expect(tokens.accessToken).toMatch(/^IGAA/);
    expect(tokens.refreshToken).toBeNull();
    expect(tokens.expiresAt?.getTime()).toBe(sb.clock().getTime() + LONG_TTL * 1000);
    expect(tokens.scopes).toEqual([...INSTAGRAM_SCOPES]);

    const account = await adapter.fetchAccount(tokens);
    expect(account).toMatchObject({
      id: expect.stringMatching(/^17841/),
      name: 'Sandbox User',
      username: 'sandbox_user',
      destinations: [],
    });
    expect(account.slice).toEqual({
      profile: {
        username: 'sandbox_user',
        name: 'Sandbox User',
        account_type: 'BUSINESS',
        followers_count: 1534,
        follows_count: 210,
        media_count: 37,
        biography: 'Sandbox User on the Herald sandbox.',
        website: 'https://sandbox-user.example',
        profile_picture_url: account.avatarUrl,
      },
    });

    // Instagram refuses to refresh a token younger than a day.
    await expectPlatformError(auth.refresh!(tokens), 'invalid_content', secretsOf(tokens));
    sb.advance(DAY + 60);
    const refreshed = await auth.refresh!(tokens);
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    expect(refreshed.expiresAt?.getTime()).toBe(sb.clock().getTime() + LONG_TTL * 1000);
    expect(refreshed.scopes).toEqual(tokens.scopes);
    expect((await adapter.fetchAccount(refreshed)).id).toBe(account.id);

    sb.advance(LONG_TTL);
    await expectPlatformError(adapter.fetchAccount(refreshed), 'auth_expired', secretsOf(refreshed));
    await expectPlatformError(auth.refresh!(refreshed), 'reauth_required', secretsOf(refreshed));
  });

  it('rejects a wrong code, a wrong redirect_uri and wrong app credentials', async () => {
    await expectPlatformError(auth.exchangeCode({ code: 'not-a-code', redirectUri: redirectUri() }), 'reauth_required');
    const { code } = await approve(auth.authorizeUrl({ state: 's', redirectUri: redirectUri() }));
    await expectPlatformError(
      auth.exchangeCode({ code, redirectUri: `${sb.publicUrl}/elsewhere/instagram/oauth/callback` }),
      'reauth_required',
      [code],
    );
    const deps = sandboxDeps(sb, 'instagram');
    const badApp = instagramAdapter({ ...deps, config: { ...deps.config, clientSecret: 'nope' } });
    const bad = await expectPlatformError(
      (badApp.auth as OAuth2Auth).exchangeCode({ code, redirectUri: redirectUri() }),
      'permission',
      [code],
    );
    expect(bad).toMatchObject({ status: 400, code: 'OAuthException' });
    // None of the refusals spent the code.
    expect((await auth.exchangeCode({ code, redirectUri: redirectUri() })).accessToken).toMatch(/^IGAA/);
  });
});

describe('instagram adapter: injected faults', () => {
  it('maps rate limits, server errors, expiry and revocation on the profile read', async () => {
    const tokens = await connect();
    const secrets = secretsOf(tokens);
    await sb.fault({ platform: 'instagram', operation: 'profile', fault: 'rate_limit' });
    expect(await expectPlatformError(adapter.fetchAccount(tokens), 'rate_limited', secrets)).toMatchObject({
      code: '4',
    });
    await sb.fault({ platform: 'instagram', operation: 'profile', fault: 'server_error' });
    await expectPlatformError(adapter.fetchAccount(tokens), 'transient', secrets);
    await sb.fault({ platform: 'instagram', operation: 'profile', fault: 'expire_token' });
    await expectPlatformError(adapter.fetchAccount(tokens), 'auth_expired', secrets);

    const other = await connect();
    await sb.fault({ platform: 'instagram', operation: 'profile', fault: 'revoke' });
    await expectPlatformError(adapter.fetchAccount(other), 'reauth_required', secretsOf(other));
    sb.advance(DAY + 60);
    await expectPlatformError(auth.refresh!(other), 'reauth_required', secretsOf(other));
  });

  it('maps token endpoint faults on exchange, the long-lived swap and refresh', async () => {
    const { code } = await approve(auth.authorizeUrl({ state: 's', redirectUri: redirectUri() }));
    await sb.fault({ platform: 'instagram', operation: 'token', fault: 'rate_limit' });
    await expectPlatformError(auth.exchangeCode({ code, redirectUri: redirectUri() }), 'rate_limited', [code]);
    await sb.fault({ platform: 'instagram', operation: 'token', fault: 'server_error' });
    await expectPlatformError(auth.exchangeCode({ code, redirectUri: redirectUri() }), 'transient', [code]);
    const tokens = await auth.exchangeCode({ code, redirectUri: redirectUri() });
    sb.advance(DAY + 60);
    await sb.fault({ platform: 'instagram', operation: 'refresh', fault: 'server_error' });
    await expectPlatformError(auth.refresh!(tokens), 'transient', secretsOf(tokens));
    await sb.fault({ platform: 'instagram', operation: 'refresh', fault: 'revoke' });
    await expectPlatformError(auth.refresh!(tokens), 'reauth_required', secretsOf(tokens));
    await expectPlatformError(adapter.fetchAccount(tokens), 'reauth_required', secretsOf(tokens));
  });
});

describe('instagram adapter: wire details', () => {
  it('accepts the {data: [...]}-wrapped code exchange of the current docs', async () => {
    const wrapped = canned({
      '/oauth/access_token': {
        status: 200,
        body: {
          data: [{ access_token: 'IGAAshort', user_id: '17841400000000001', permissions: 'instagram_business_basic' }],
        },
      },
      '/access_token': { status: 200, body: { access_token: 'IGAAlong', token_type: 'bearer', expires_in: LONG_TTL } },
    });
    const tokens = await (wrapped.auth as OAuth2Auth).exchangeCode({
      code: 'c',
      redirectUri: 'https://herald.example/instagram/oauth/callback',
    });
    expect(tokens).toEqual({
      accessToken: 'IGAAlong',
      refreshToken: null,
      expiresAt: new Date(LONG_TTL * 1000),
      scopes: ['instagram_business_basic'],
    });
  });

  it('reads Graph throttling and dead-session answers on graph.instagram.com', async () => {
    const path = `/${INSTAGRAM_GRAPH_VERSION}/me`;
    const throttled = canned({
      [path]: {
        status: 400,
        body: { error: { message: 'Application request limit reached', code: 17, is_transient: true } },
      },
    });
    await expectPlatformError(throttled.fetchAccount({ accessToken: 'IGAAsecret' }), 'rate_limited', ['IGAAsecret']);
    const invalidated = canned({
      [path]: {
        status: 400,
        body: {
          error: {
            message: 'Error validating access token: Session has been invalidated',
            code: 190,
            error_subcode: 467,
          },
        },
      },
    });
    await expectPlatformError(invalidated.fetchAccount({ accessToken: 'IGAAsecret' }), 'reauth_required', [
      'IGAAsecret',
    ]);
  });
});

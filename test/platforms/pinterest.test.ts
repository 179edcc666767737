import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PINTEREST_CAPABILITIES, PINTEREST_SCOPES, pinterestAdapter } from '../../src/platforms/pinterest/index.ts';
import type { OAuth2Auth, PlatformAdapter, TokenSet } from '../../src/platforms/types.ts';
import { approve, cannedDeps, connectThrough, expectPlatformError, sandboxDeps } from './helpers/oauth-flow.ts';
import type { Canned } from './helpers/oauth-flow.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';

const DAY = 86_400;
let sb: TestSandbox;
let adapter: PlatformAdapter;
let auth: OAuth2Auth;
const redirectUri = (): string => sb.callback('pinterest');
const secretsOf = (t: TokenSet): string[] => [t.accessToken, t.refreshToken ?? ''];

const connect = (): Promise<TokenSet> => connectThrough(sb, adapter, 'st-pin');

/** An adapter whose HTTP answers are canned per request, for wire details the sandbox cannot produce. */
const cannedAdapter = (answer: (url: URL, init: RequestInit) => Canned): PlatformAdapter =>
  pinterestAdapter(cannedDeps(answer, { clientId: '1', clientSecret: 's' }));

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  adapter = pinterestAdapter(sandboxDeps(sb, 'pinterest'));
  auth = adapter.auth as OAuth2Auth;
});

describe('pinterest adapter: setup', () => {
  it('declares capabilities and builds the authorize URL on the real host, without PKCE or revocation', () => {
    expect(adapter).toMatchObject({ platform: 'pinterest', configured: true, capabilities: PINTEREST_CAPABILITIES });
    expect(PINTEREST_CAPABILITIES).toEqual({
      postTypes: ['image', 'carousel', 'video'],
      text: { max: 100, unit: 'utf16' },
      asyncProcessing: true,
    });
    expect(auth.pkce).toBe(false);
    expect(auth.revoke).toBeUndefined();
    const real = pinterestAdapter({
      ...sandboxDeps(sb, 'pinterest'),
      config: { clientId: '42', clientSecret: 's', urls: {} },
    });
    const url = new URL(
      (real.auth as OAuth2Auth).authorizeUrl({
        state: 's1',
        redirectUri: 'https://h.example/pinterest/oauth/callback',
      }),
    );
    expect(`${url.origin}${url.pathname}`).toBe('https://www.pinterest.com/oauth/');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: '42',
      redirect_uri: 'https://h.example/pinterest/oauth/callback',
      response_type: 'code',
      scope: PINTEREST_SCOPES.join(','),
      state: 's1',
    });
    expect(pinterestAdapter({ ...sandboxDeps(sb, 'pinterest'), config: { clientId: '42', urls: {} } }).configured).toBe(
      false,
    );
  });
});

describe('pinterest adapter: token lifecycle against the sandbox', () => {
  it('connects, reads profile and boards, and refreshes with continuous rotation', async () => {
    const tokens = await connect();
    expect(tokens.accessToken).toMatch(/^pina_/);
    expect(tokens.refreshToken).toMatch(/^pinr_/);
    expect(tokens.expiresAt?.getTime()).toBe(sb.clock().getTime() + 30 * DAY * 1000);
    expect(tokens.refreshExpiresAt?.getTime()).toBe(sb.clock().getTime() + 60 * DAY * 1000);
    expect(tokens.scopes).toEqual([...PINTEREST_SCOPES]);

    const account = await adapter.fetchAccount(tokens);
    expect(account).toMatchObject({
      id: expect.stringMatching(/^\d{18}$/),
      name: 'Sandbox User Co.',
      username: 'sandboxuser',
    });
    expect(account.slice.profile).toEqual({
      pinterest_user_id: account.id,
      username: 'sandboxuser',
      business_name: 'Sandbox User Co.',
      account_type: 'BUSINESS',
      website_url: 'https://sandbox-user.example',
      about: 'Pinning from the Herald sandbox.',
      board_count: 2,
      pin_count: 0,
      follower_count: 812,
      following_count: 64,
      monthly_views: 10450,
      profile_image: expect.stringContaining('/_sandbox/avatar/'),
    });
    expect(account.slice.boards).toEqual([
      { board_id: expect.stringMatching(/^\d+$/), name: 'Recipes' },
      { board_id: expect.stringMatching(/^\d+$/), name: 'Studio Ideas' },
    ]);
    expect(account.destinations.map((d) => [d.kind, d.name, d.meta?.privacy])).toEqual([
      ['board', 'Recipes', 'PUBLIC'],
      ['board', 'Studio Ideas', 'PUBLIC'],
    ]);

    sb.advance(30 * DAY);
    await expectPlatformError(adapter.fetchAccount(tokens), 'auth_expired', secretsOf(tokens));
    const refreshed = await auth.refresh!(tokens);
    expect(refreshed.refreshToken).toMatch(/^pinr_/);
    expect(refreshed.refreshToken).not.toBe(tokens.refreshToken);
    expect(refreshed.refreshExpiresAt?.getTime()).toBe(sb.clock().getTime() + 60 * DAY * 1000);
    expect((await adapter.fetchAccount(refreshed)).id).toBe(account.id);
    await expectPlatformError(auth.refresh!(tokens), 'reauth_required', secretsOf(tokens));
  });

  it('rejects a wrong code, a wrong redirect_uri and wrong app credentials', async () => {
    await expectPlatformError(auth.exchangeCode({ code: 'nope', redirectUri: redirectUri() }), 'reauth_required');
    const { code } = await approve(auth.authorizeUrl({ state: 's', redirectUri: redirectUri() }));
    await expectPlatformError(
      auth.exchangeCode({ code, redirectUri: `${sb.publicUrl}/x/pinterest/oauth/callback` }),
      'reauth_required',
      [code],
    );
    const deps = sandboxDeps(sb, 'pinterest');
    const badApp = pinterestAdapter({ ...deps, config: { ...deps.config, clientSecret: 'wrong' } });
    await expectPlatformError(
      (badApp.auth as OAuth2Auth).exchangeCode({ code, redirectUri: redirectUri() }),
      'permission',
      [code],
    );
    expect((await auth.exchangeCode({ code, redirectUri: redirectUri() })).accessToken).toMatch(/^pina_/);
  });
});

describe('pinterest adapter: injected faults', () => {
  it('maps rate limits, outages, expiry and a grant revoked on Pinterest', async () => {
    const tokens = await connect();
    const secrets = secretsOf(tokens);
    await sb.fault({ platform: 'pinterest', operation: 'pages', fault: 'rate_limit' });
    expect(await expectPlatformError(adapter.fetchAccount(tokens), 'rate_limited', secrets)).toMatchObject({
      status: 429,
      code: '8',
    });
    await sb.fault({ platform: 'pinterest', operation: 'profile', fault: 'server_error' });
    await expectPlatformError(adapter.fetchAccount(tokens), 'transient', secrets);
    await sb.fault({ platform: 'pinterest', operation: 'profile', fault: 'expire_token' });
    await expectPlatformError(adapter.fetchAccount(tokens), 'auth_expired', secrets);
    const fresh = await auth.refresh!(tokens);
    await sb.fault({ platform: 'pinterest', operation: 'profile', fault: 'revoke' });
    await expectPlatformError(adapter.fetchAccount(fresh), 'auth_expired', secretsOf(fresh));
    await expectPlatformError(auth.refresh!(fresh), 'reauth_required', secretsOf(fresh));
  });

  it('maps token endpoint faults', async () => {
    const { code } = await approve(auth.authorizeUrl({ state: 's', redirectUri: redirectUri() }));
    await sb.fault({ platform: 'pinterest', operation: 'token', fault: 'server_error' });
    await expectPlatformError(auth.exchangeCode({ code, redirectUri: redirectUri() }), 'transient', [code]);
    const tokens = await auth.exchangeCode({ code, redirectUri: redirectUri() });
    await sb.fault({ platform: 'pinterest', operation: 'refresh', fault: 'rate_limit' });
    await expectPlatformError(auth.refresh!(tokens), 'rate_limited', secretsOf(tokens));
    await sb.fault({ platform: 'pinterest', operation: 'refresh', fault: 'revoke' });
    await expectPlatformError(auth.refresh!(tokens), 'reauth_required', secretsOf(tokens));
  });
});

describe('pinterest adapter: wire details', () => {
  it('reads the real grant-invalid answer (401, code 283) as reauth_required and sends continuous_refresh', async () => {
    let sent = '';
    const canned = cannedAdapter((_url, init) => {
      sent = String(init.body);
      return { status: 401, body: { code: 283, message: 'The authorization grant is invalid' } };
    });
    const err = await expectPlatformError(
      (canned.auth as OAuth2Auth).refresh!({ accessToken: 'pina_a', refreshToken: 'pinr_r' }),
      'reauth_required',
      ['pina_a', 'pinr_r'],
    );
    expect(err.code).toBe('283');
    expect(new URLSearchParams(sent).get('continuous_refresh')).toBe('true');
  });

  it('passes Retry-After through, keeps 403 scope errors out of the refresh path, and follows board bookmarks', async () => {
    const limited = cannedAdapter(() => ({
      status: 429,
      body: { code: 8, message: 'slow' },
      headers: { 'retry-after': '17' },
    }));
    expect(await expectPlatformError(limited.fetchAccount({ accessToken: 'pina_a' }), 'rate_limited')).toMatchObject({
      retryAfterSeconds: 17,
    });
    const scope = cannedAdapter(() => ({ status: 403, body: { code: 3, message: 'Missing scope: boards:read' } }));
    // A scope the grant lacks: a new authorization approving it is the cure, not a refresh.
    await expectPlatformError(scope.fetchAccount({ accessToken: 'pina_a' }), 'reauth_required');

    const paged = cannedAdapter((url) => {
      if (url.pathname === '/v5/user_account')
        return { status: 200, body: { id: '7', username: 'u', account_type: 'PINNER' } };
      const second = url.searchParams.get('bookmark') === 'b2';
      return {
        status: 200,
        body: { items: [{ id: second ? '2' : '1', name: second ? 'Two' : 'One' }], bookmark: second ? null : 'b2' },
      };
    });
    const account = await paged.fetchAccount({ accessToken: 'pina_a' });
    expect(account.slice.boards).toEqual([
      { board_id: '1', name: 'One' },
      { board_id: '2', name: 'Two' },
    ]);
    expect(account.slice.profile).toMatchObject({ pinterest_user_id: '7', business_name: null, monthly_views: null });
  });
});

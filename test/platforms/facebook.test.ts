import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  FACEBOOK_GRAPH_VERSION,
  FACEBOOK_SCOPES,
  facebookAdapter,
  pageTokenKey,
} from '../../src/platforms/facebook/index.ts';
import type { OAuth2Auth, PlatformAdapter, TokenSet } from '../../src/platforms/types.ts';
import { SANDBOX_APPS, sandboxBaseUrls } from '../../src/sandbox/index.ts';
import { approve, cannedDeps, expectPlatformError, sandboxDeps } from './helpers/oauth-flow.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';

const LONG_TTL = 5_183_944;
let sb: TestSandbox;
let adapter: PlatformAdapter;
let auth: OAuth2Auth;
const redirectUri = (): string => sb.callback('facebook');
const secretsOf = (t: TokenSet): string[] => [
  t.accessToken,
  ...Object.values(t.extra ?? {}),
  SANDBOX_APPS.facebook.clientSecret,
];

async function connect(scope?: string): Promise<TokenSet> {
  const url = new URL(auth.authorizeUrl({ state: 'st-fb', redirectUri: redirectUri() }));
  if (scope) url.searchParams.set('scope', scope);
  const { code } = await approve(url.toString());
  return auth.exchangeCode({ code, redirectUri: redirectUri() });
}

/** Reads /me with a Page token straight from the simulator: the Page token's own state is not the adapter's. */
async function pageTokenWorks(token: string): Promise<number> {
  const res = await fetch(`${sandboxBaseUrls(sb.publicUrl).facebook.graphBase}/${FACEBOOK_GRAPH_VERSION}/me`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return res.status;
}

const canned = (status: number, body: unknown, headers: Record<string, string> = {}): PlatformAdapter =>
  facebookAdapter(cannedDeps({ status, body, headers }));

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  adapter = facebookAdapter(sandboxDeps(sb, 'facebook'));
  auth = adapter.auth as OAuth2Auth;
});

describe('facebook adapter: setup', () => {
  it('declares capabilities, no PKCE, and builds the dialog URL on the real host by default', () => {
    expect(adapter).toMatchObject({
      platform: 'facebook',
      configured: true,
      capabilities: {
        postTypes: ['text', 'image', 'carousel', 'video'],
        text: { max: 63_206, unit: 'utf16' },
        asyncProcessing: true,
      },
    });
    expect(auth).toMatchObject({ kind: 'oauth2', pkce: false });
    const real = facebookAdapter({
      ...sandboxDeps(sb, 'facebook'),
      config: { clientId: 'ci', clientSecret: 'cs', urls: {} },
    });
    const url = new URL(
      (real.auth as OAuth2Auth).authorizeUrl({
        state: 's1',
        redirectUri: 'https://herald.example/facebook/oauth/callback',
      }),
    );
    expect(`${url.origin}${url.pathname}`).toBe(`https://www.facebook.com/${FACEBOOK_GRAPH_VERSION}/dialog/oauth`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'ci',
      redirect_uri: 'https://herald.example/facebook/oauth/callback',
      state: 's1',
      response_type: 'code',
      scope: FACEBOOK_SCOPES.join(','),
    });
    const bare = facebookAdapter({ ...sandboxDeps(sb, 'facebook'), config: { clientSecret: 'cs', urls: {} } });
    expect(bare.configured).toBe(false);
    expect(() => (bare.auth as OAuth2Auth).authorizeUrl({ state: 's', redirectUri: redirectUri() })).toThrow(
      /not configured/,
    );
  });
});

describe('facebook adapter: token lifecycle against the sandbox', () => {
  it('connects with a long-lived user token, never-expiring Page tokens in extra, and lists Pages and Instagram accounts', async () => {
    const approval = await approve(auth.authorizeUrl({ state: 'st-1', redirectUri: redirectUri() }));
    expect(approval.state).toBe('st-1');
    const tokens = await auth.exchangeCode({ code: approval.code, redirectUri: redirectUri() });
    expect(tokens.accessToken).toMatch(/^EAA/);
    expect(tokens.refreshToken).toBeNull();
    expect(tokens.expiresAt?.getTime()).toBe(sb.clock().getTime() + LONG_TTL * 1000);
    expect(tokens.scopes).toEqual(expect.arrayContaining([...FACEBOOK_SCOPES]));

    const account = await adapter.fetchAccount(tokens);
    const [page0, ig, page1] = account.destinations;
    expect(account).toMatchObject({
      name: 'Sandbox User',
      username: null,
      avatarUrl: expect.stringContaining('/_sandbox/avatar/'),
    });
    expect(page0).toMatchObject({
      kind: 'page',
      name: 'User Bakery',
      meta: { category: 'Bakery', tasks: expect.arrayContaining(['CREATE_CONTENT']) },
    });
    expect(ig).toMatchObject({
      kind: 'business_account',
      id: expect.stringMatching(/^17841/),
      name: 'sandbox_user_bakery',
      meta: { network: 'instagram', page_id: page0?.id },
    });
    expect(page1).toMatchObject({
      kind: 'page',
      name: 'Sandbox User Studio',
      meta: { instagram_business_account_id: null },
    });
    expect(Object.keys(tokens.extra ?? {}).sort()).toEqual(
      [pageTokenKey(page0?.id ?? ''), pageTokenKey(page1?.id ?? '')].sort(),
    );
    expect(account.slice).toMatchObject({
      profile: {
        name: 'Sandbox User',
        first_name: 'Sandbox',
        last_name: 'User',
        profile_picture_url: account.avatarUrl,
      },
      pages: [
        {
          page_id: page0?.id,
          page_name: 'User Bakery',
          picture_url: page0?.avatarUrl,
          is_business_manager: false,
          instagram_business_account: { id: ig?.id, username: 'sandbox_user_bakery' },
        },
        { page_id: page1?.id, page_name: 'Sandbox User Studio', instagram_business_account: null },
      ],
    });
    // Secrets stay in the TokenSet.
    const published = JSON.stringify(account);
    for (const secret of secretsOf(tokens)) expect(published).not.toContain(secret);

    // Page tokens minted from the long-lived user token outlive it.
    const pageToken = tokens.extra?.[pageTokenKey(page0?.id ?? '')] ?? '';
    sb.advance(LONG_TTL + 60);
    expect(await pageTokenWorks(pageToken)).toBe(200);
    const expired = await expectPlatformError(adapter.fetchAccount(tokens), 'auth_expired', secretsOf(tokens));
    expect(expired).toMatchObject({ code: '190', status: 400 });
    // No refresh grant: a dead user token means logging in again.
    await expectPlatformError(auth.refresh!(tokens), 'reauth_required', secretsOf(tokens));
  });

  it('re-derives Page tokens on refresh without touching the user token, and revokes the whole grant', async () => {
    const tokens = await connect();
    const refreshed = await auth.refresh!({ ...tokens, extra: { unrelated: 'kept', [pageTokenKey('gone')]: 'stale' } });
    expect(refreshed.accessToken).toBe(tokens.accessToken);
    expect(refreshed.expiresAt).toEqual(tokens.expiresAt);
    expect(refreshed.extra).toEqual({ ...tokens.extra, unrelated: 'kept' });

    await auth.revoke!(tokens);
    await expectPlatformError(adapter.fetchAccount(tokens), 'reauth_required', secretsOf(tokens));
    for (const pageToken of Object.values(tokens.extra ?? {})) expect(await pageTokenWorks(pageToken)).toBe(400);
    // Revoking again, with a dead token, is a no-op rather than an error.
    await auth.revoke!(tokens);
  });

  it('connects a user who declined pages_show_list, with no Pages', async () => {
    const tokens = await connect('public_profile');
    expect(tokens.extra).toEqual({});
    expect(tokens.scopes).toEqual(['public_profile']);
    const account = await adapter.fetchAccount(tokens);
    expect(account.destinations).toEqual([]);
    expect(account.slice).toMatchObject({ pages: [] });
  });

  it('rejects a wrong code, a wrong redirect_uri and wrong app credentials', async () => {
    await expectPlatformError(auth.exchangeCode({ code: 'not-a-code', redirectUri: redirectUri() }), 'reauth_required');
    const { code } = await approve(auth.authorizeUrl({ state: 's', redirectUri: redirectUri() }));
    const deps = sandboxDeps(sb, 'facebook');
    const badApp = facebookAdapter({ ...deps, config: { ...deps.config, clientSecret: 'nope' } });
    await expectPlatformError(
      (badApp.auth as OAuth2Auth).exchangeCode({ code, redirectUri: redirectUri() }),
      'permission',
      [code, 'nope'],
    );
    const wrong = await expectPlatformError(
      auth.exchangeCode({ code, redirectUri: `${sb.publicUrl}/elsewhere/facebook/oauth/callback` }),
      'reauth_required',
      [code],
    );
    expect(wrong).toMatchObject({ code: '100', status: 400 });
    const tokens = await auth.exchangeCode({ code, redirectUri: redirectUri() });
    await expectPlatformError(auth.exchangeCode({ code, redirectUri: redirectUri() }), 'reauth_required', [
      code,
      ...secretsOf(tokens),
    ]);
  });
});

describe('facebook adapter: injected faults', () => {
  it('maps rate limits, server errors, expiry and revocation on the profile and Page reads', async () => {
    const tokens = await connect();
    const secrets = secretsOf(tokens);
    await sb.fault({ platform: 'facebook', operation: 'profile', fault: 'rate_limit' });
    const limited = await expectPlatformError(adapter.fetchAccount(tokens), 'rate_limited', secrets);
    // Graph throttling answers carry usage headers but no wait time unless the BUC header says so.
    expect(limited).toMatchObject({ code: '4', status: 400, retryAfterSeconds: undefined });
    await sb.fault({ platform: 'facebook', operation: 'pages', fault: 'server_error' });
    expect((await expectPlatformError(adapter.fetchAccount(tokens), 'transient', secrets)).retryable).toBe(true);
    await sb.fault({ platform: 'facebook', operation: 'pages', fault: 'rate_limit' });
    await expectPlatformError(auth.refresh!(tokens), 'rate_limited', secrets);
    await sb.fault({ platform: 'facebook', operation: 'profile', fault: 'revoke' });
    await expectPlatformError(adapter.fetchAccount(tokens), 'reauth_required', secrets);

    const other = await connect();
    await sb.fault({ platform: 'facebook', operation: 'profile', fault: 'expire_token' });
    await expectPlatformError(adapter.fetchAccount(other), 'auth_expired', secretsOf(other));
  });

  it('maps token endpoint and revocation faults', async () => {
    const { code } = await approve(auth.authorizeUrl({ state: 's', redirectUri: redirectUri() }));
    await sb.fault({ platform: 'facebook', operation: 'token', fault: 'rate_limit' });
    await expectPlatformError(auth.exchangeCode({ code, redirectUri: redirectUri() }), 'rate_limited', [code]);
    await sb.fault({ platform: 'facebook', operation: 'token', fault: 'server_error' });
    await expectPlatformError(auth.exchangeCode({ code, redirectUri: redirectUri() }), 'transient', [code]);
    await sb.fault({ platform: 'facebook', operation: 'token', fault: 'expire_token' });
    await expectPlatformError(auth.exchangeCode({ code, redirectUri: redirectUri() }), 'reauth_required', [code]);
    // The code is spent by then: a failing Page listing leaves the Page tokens to a later refresh, not a new login.
    await sb.fault({ platform: 'facebook', operation: 'pages', fault: 'server_error' });
    const tokens = await connect();
    expect(tokens.extra).toEqual({});
    expect(Object.keys((await auth.refresh!(tokens)).extra ?? {})).toHaveLength(2);
    await sb.fault({ platform: 'facebook', operation: 'revoke', fault: 'server_error' });
    await expectPlatformError(auth.revoke!(tokens), 'transient', secretsOf(tokens));
  });
});

describe('facebook adapter: wire details', () => {
  it('reads Graph error codes and subcodes', async () => {
    const usage = JSON.stringify({
      '123': [
        { type: 'pages', call_count: 100, total_cputime: 20, total_time: 30, estimated_time_to_regain_access: 7 },
      ],
    });
    const buc = canned(
      400,
      { error: { message: '(#80001) There have been too many calls to this Page account', code: 80001 } },
      { 'x-business-use-case-usage': usage },
    );
    expect(
      await expectPlatformError(buc.fetchAccount({ accessToken: 'EAAsecret' }), 'rate_limited', ['EAAsecret']),
    ).toMatchObject({ retryAfterSeconds: 420 });
    const password = canned(400, {
      error: {
        message:
          'Error validating access token: The session has been invalidated because the user changed their password.',
        code: 190,
        error_subcode: 460,
      },
    });
    await expectPlatformError(password.fetchAccount({ accessToken: 'EAAsecret' }), 'reauth_required', ['EAAsecret']);
    const unknown = canned(500, { error: { message: 'An unknown error occurred', code: 1, is_transient: true } });
    await expectPlatformError(unknown.fetchAccount({ accessToken: 'EAAsecret' }), 'transient');
    const blocked = canned(400, { error: { message: 'You are posting too fast', code: 368, error_subcode: 1390008 } });
    await expectPlatformError(blocked.fetchAccount({ accessToken: 'EAAsecret' }), 'rate_limited');
    const noPerm = canned(403, { error: { message: '(#200) Requires pages_read_engagement permission', code: 200 } });
    await expectPlatformError(noPerm.fetchAccount({ accessToken: 'EAAsecret' }), 'permission');
  });
});

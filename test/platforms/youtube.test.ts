import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OAuth2Auth, PlatformAdapter, TokenSet } from '../../src/platforms/types.ts';
import { secondsToQuotaReset } from '../../src/platforms/youtube/errors.ts';
import { YOUTUBE_CAPABILITIES, YOUTUBE_SCOPES, youtubeAdapter } from '../../src/platforms/youtube/index.ts';
import {
  approve,
  cannedDeps,
  connectThrough,
  expectPlatformError,
  pkcePair,
  sandboxDeps,
} from './helpers/oauth-flow.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';

let sb: TestSandbox;
let adapter: PlatformAdapter;
let auth: OAuth2Auth;
const redirectUri = (): string => sb.callback('youtube');
const secretsOf = (t: TokenSet): string[] => [t.accessToken, t.refreshToken ?? ''];

const connect = (): Promise<TokenSet> => connectThrough(sb, adapter, 'st-yt');

/** An adapter whose HTTP answers are canned, for wire details the sandbox cannot produce. */
const cannedAdapter = (status: number, body: unknown, at = new Date('2026-11-21T12:00:00Z')): PlatformAdapter =>
  youtubeAdapter(cannedDeps({ status, body }, { clock: () => at }));

const apiError = (code: number, reason: string) => ({
  error: { code, message: `${reason} happened`, errors: [{ reason, domain: 'youtube.quota' }] },
});

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  adapter = youtubeAdapter(sandboxDeps(sb, 'youtube'));
  auth = adapter.auth as OAuth2Auth;
});

describe('youtube adapter: setup', () => {
  it('declares capabilities and builds an offline, consent-forcing PKCE authorize URL on the real host', () => {
    expect(adapter).toMatchObject({ platform: 'youtube', configured: true, capabilities: YOUTUBE_CAPABILITIES });
    expect(YOUTUBE_CAPABILITIES).toEqual({
      postTypes: ['video'],
      text: { max: 100, unit: 'utf16' },
      asyncProcessing: true,
    });
    expect(auth.pkce).toBe(true);
    const real = youtubeAdapter({
      ...sandboxDeps(sb, 'youtube'),
      config: { clientId: 'ci', clientSecret: 'cs', urls: {} },
    });
    const url = new URL(
      (real.auth as OAuth2Auth).authorizeUrl({
        state: 's1',
        redirectUri: 'https://h.example/youtube/oauth/callback',
        codeChallenge: 'c'.repeat(43),
      }),
    );
    expect(`${url.origin}${url.pathname}`).toBe('https://accounts.google.com/o/oauth2/v2/auth');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'ci',
      redirect_uri: 'https://h.example/youtube/oauth/callback',
      response_type: 'code',
      scope: YOUTUBE_SCOPES.join(' '),
      state: 's1',
      access_type: 'offline',
      prompt: 'consent',
      code_challenge: 'c'.repeat(43),
      code_challenge_method: 'S256',
    });
    expect(youtubeAdapter({ ...sandboxDeps(sb, 'youtube'), config: { clientSecret: 'cs', urls: {} } }).configured).toBe(
      false,
    );
  });
});

describe('youtube adapter: token lifecycle against the sandbox', () => {
  it('connects, reads channel and playlists, refreshes keeping the refresh token, and revokes', async () => {
    const tokens = await connect();
    expect(tokens.accessToken).toMatch(/^ya29\./);
    expect(tokens.refreshToken).toMatch(/^1\/\//);
    expect(tokens.expiresAt?.getTime()).toBe(sb.clock().getTime() + 3599 * 1000);
    expect(tokens.refreshExpiresAt).toBeNull();
    expect(tokens.scopes).toEqual([...YOUTUBE_SCOPES]);

    const account = await adapter.fetchAccount(tokens);
    expect(account.id).toMatch(/^UC[\w-]{22}$/);
    expect(account).toMatchObject({ name: 'Sandbox User Videos', username: '@sandboxuser' });
    const info = account.slice.channel_info as Record<string, unknown>;
    expect(info).toMatchObject({
      channel_id: account.id,
      title: 'Sandbox User Videos',
      custom_url: '@sandboxuser',
      subscriber_count: 1290,
      video_count: 37,
      view_count: 48213,
      country: 'US',
      default_language: null,
      keywords: null,
      published_at: new Date(sb.clock()).toISOString(),
      description: 'The Sandbox User channel on the Herald sandbox.',
    });
    expect(info.thumbnail_url).toEqual(expect.stringContaining('/_sandbox/avatar/'));
    expect(account.slice.connections).toEqual([
      {
        channel_id: account.id,
        title: 'Sandbox User Videos',
        custom_url: '@sandboxuser',
        thumbnail_url: info.thumbnail_url,
        is_default: true,
      },
    ]);
    const playlistId = (account.slice.playlists as { id: string }[])[0]?.id;
    expect(account.slice.playlists).toEqual([{ id: expect.stringMatching(/^PL/), title: 'Sandbox Favourites' }]);
    expect(account.destinations).toEqual([
      expect.objectContaining({
        kind: 'channel',
        id: account.id,
        meta: expect.objectContaining({ uploads_playlist_id: expect.stringMatching(/^UU/) }),
      }),
      expect.objectContaining({
        kind: 'playlist',
        id: playlistId,
        name: 'Sandbox Favourites',
        meta: { channel_id: account.id, privacy_status: 'public' },
      }),
    ]);

    sb.advance(3600);
    await expectPlatformError(adapter.fetchAccount(tokens), 'auth_expired', secretsOf(tokens));
    const refreshed = await auth.refresh!(tokens);
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    expect(refreshed.refreshToken).toBe(tokens.refreshToken);
    expect(refreshed.expiresAt?.getTime()).toBe(sb.clock().getTime() + 3599 * 1000);
    expect((await adapter.fetchAccount(refreshed)).id).toBe(account.id);

    await auth.revoke!(refreshed);
    await expectPlatformError(adapter.fetchAccount(refreshed), 'auth_expired', secretsOf(refreshed));
    const gone = await expectPlatformError(auth.refresh!(refreshed), 'reauth_required', secretsOf(refreshed));
    expect(gone.code).toBe('invalid_grant');
    // Disconnecting twice is not an error.
    await auth.revoke!(refreshed);
  });

  it('gets a refresh token again on a re-connect (prompt=consent)', async () => {
    const first = await connect();
    const second = await connect();
    expect(second.refreshToken).toMatch(/^1\/\//);
    expect(second.refreshToken).not.toBe(first.refreshToken);
  });

  it('fails the exchange without the PKCE verifier, with a wrong one, a wrong code or a wrong redirect_uri', async () => {
    const { verifier, challenge } = pkcePair();
    const { code } = await approve(
      auth.authorizeUrl({ state: 's', redirectUri: redirectUri(), codeChallenge: challenge }),
    );
    await expectPlatformError(auth.exchangeCode({ code, redirectUri: redirectUri() }), 'reauth_required', [code]);
    await expectPlatformError(
      auth.exchangeCode({ code, redirectUri: redirectUri(), codeVerifier: pkcePair().verifier }),
      'reauth_required',
      [code, verifier],
    );
    const mismatch = await expectPlatformError(
      auth.exchangeCode({ code, redirectUri: `${sb.publicUrl}/other/youtube/oauth/callback`, codeVerifier: verifier }),
      'invalid_content',
      [code, verifier],
    );
    expect(mismatch.code).toBe('redirect_uri_mismatch');
    await expectPlatformError(
      auth.exchangeCode({ code: '4/0Anope', redirectUri: redirectUri(), codeVerifier: verifier }),
      'reauth_required',
    );
    expect((await auth.exchangeCode({ code, redirectUri: redirectUri(), codeVerifier: verifier })).accessToken).toMatch(
      /^ya29\./,
    );
  });
});

describe('youtube adapter: injected faults', () => {
  it('maps Data API rate limits, outages, expiry and revocation', async () => {
    const tokens = await connect();
    const secrets = secretsOf(tokens);
    await sb.fault({ platform: 'youtube', operation: 'pages', fault: 'rate_limit' });
    expect(await expectPlatformError(adapter.fetchAccount(tokens), 'rate_limited', secrets)).toMatchObject({
      code: 'rateLimitExceeded',
      status: 429,
    });
    await sb.fault({ platform: 'youtube', operation: 'pages', fault: 'server_error' });
    expect(await expectPlatformError(adapter.fetchAccount(tokens), 'transient', secrets)).toMatchObject({
      code: 'backendError',
      status: 503,
    });
    await sb.fault({ platform: 'youtube', operation: 'profile', fault: 'expire_token' });
    await expectPlatformError(adapter.fetchAccount(tokens), 'auth_expired', secrets);
    const fresh = await auth.refresh!(tokens);
    await sb.fault({ platform: 'youtube', operation: 'profile', fault: 'revoke' });
    await expectPlatformError(adapter.fetchAccount(fresh), 'auth_expired', secretsOf(fresh));
    await expectPlatformError(auth.refresh!(fresh), 'reauth_required', secretsOf(fresh));
  });

  it('maps token endpoint faults', async () => {
    const tokens = await connect();
    await sb.fault({ platform: 'youtube', operation: 'refresh', fault: 'rate_limit' });
    await expectPlatformError(auth.refresh!(tokens), 'rate_limited', secretsOf(tokens));
    await sb.fault({ platform: 'youtube', operation: 'token', fault: 'server_error' });
    await expectPlatformError(auth.refresh!(tokens), 'transient', secretsOf(tokens));
    await sb.fault({ platform: 'youtube', operation: 'refresh', fault: 'revoke' });
    await expectPlatformError(auth.refresh!(tokens), 'reauth_required', secretsOf(tokens));
  });
});

describe('youtube adapter: wire details', () => {
  it('reads quotaExceeded as a rate limit lasting until midnight Pacific, not as a permission error', async () => {
    // 12:00 UTC on 21 Nov 2026 is 04:00 PST: 20 hours to the reset.
    const err = await expectPlatformError(
      cannedAdapter(403, apiError(403, 'quotaExceeded')).fetchAccount({ accessToken: 'ya29.x' }),
      'rate_limited',
    );
    expect(err).toMatchObject({ code: 'quotaExceeded', retryAfterSeconds: 20 * 3600 });
    expect(secondsToQuotaReset(new Date('2026-07-01T06:59:30Z'))).toBe(30);
    await expectPlatformError(
      cannedAdapter(403, apiError(403, 'rateLimitExceeded')).fetchAccount({ accessToken: 'ya29.x' }),
      'rate_limited',
    );
    await expectPlatformError(
      cannedAdapter(403, apiError(403, 'forbidden')).fetchAccount({ accessToken: 'ya29.x' }),
      'permission',
    );
    await expectPlatformError(
      cannedAdapter(401, apiError(401, 'youtubeSignupRequired')).fetchAccount({ accessToken: 'ya29.x' }),
      'unsupported',
    );
    await expectPlatformError(
      cannedAdapter(404, apiError(404, 'channelNotFound')).fetchAccount({ accessToken: 'ya29.x' }),
      'not_found',
    );
  });

  it('reports an account without a channel as unsupported', async () => {
    const none = cannedAdapter(200, { kind: 'youtube#channelListResponse', pageInfo: { totalResults: 0 }, items: [] });
    expect(await expectPlatformError(none.fetchAccount({ accessToken: 'ya29.x' }), 'unsupported')).toMatchObject({
      code: 'youtubeSignupRequired',
    });
  });
});

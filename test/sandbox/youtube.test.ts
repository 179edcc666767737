import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_APPS } from '../../src/sandbox/index.ts';
import { basic, bearer, codeFrom, json, pkcePair, postForm, withQuery } from './helpers.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';

const app = SANDBOX_APPS.youtube;
const G = 'https://www.googleapis.com/auth/';
const SCOPES = `openid email profile ${G}youtube.readonly ${G}youtube.upload`;
let sb: TestSandbox;

function authorizeUrl(extra: Record<string, string | undefined> = {}): string {
  return withQuery(sb.url('youtube', '/o/oauth2/v2/auth'), {
    client_id: app.clientId,
    redirect_uri: sb.callback('youtube'),
    response_type: 'code',
    scope: SCOPES,
    state: 'st-yt',
    access_type: 'offline',
    ...extra,
  });
}

function exchange(code: string, overrides: Record<string, string | undefined> = {}): Promise<Response> {
  return postForm(sb.url('youtube', '/token'), {
    code,
    client_id: app.clientId,
    client_secret: app.clientSecret,
    redirect_uri: sb.callback('youtube'),
    grant_type: 'authorization_code',
    ...overrides,
  });
}

const refresh = (token: string) =>
  postForm(
    sb.url('youtube', '/token'),
    { grant_type: 'refresh_token', refresh_token: token },
    basic(app.clientId, app.clientSecret),
  );
const channels = (token: string) =>
  fetch(sb.url('youtube', '/youtube/v3/channels?part=snippet,contentDetails,statistics&mine=true'), bearer(token));

async function connect(extra: Record<string, string | undefined> = {}) {
  const body = await json(await exchange(await codeFrom(authorizeUrl(extra))));
  return {
    access: String(body.access_token),
    refresh: body.refresh_token === undefined ? undefined : String(body.refresh_token),
  };
}

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

describe('google oauth + youtube', () => {
  it('shows Google-style error pages and the consent page, and auto-approves', async () => {
    expect((await fetch(authorizeUrl())).status).toBe(200);
    const mismatch = await fetch(authorizeUrl({ redirect_uri: `${sb.publicUrl}/youtube/oauth/callback/` }));
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain('redirect_uri_mismatch');
    expect(await (await fetch(authorizeUrl({ scope: `${G}youtube.everything` }))).text()).toContain('invalid_scope');
    expect(await codeFrom(authorizeUrl())).toMatch(/^4\/0A/);
  });

  it('exchanges once; refresh token only on first offline consent unless prompt=consent', async () => {
    const code = await codeFrom(authorizeUrl());
    const body = await json(await exchange(code));
    expect(body).toMatchObject({ expires_in: 3599, token_type: 'Bearer', scope: SCOPES });
    expect(String(body.refresh_token)).toMatch(/^1\/\/0/);
    expect(String(body.id_token).split('.')).toHaveLength(3);
    const reused = await exchange(code);
    expect(reused.status).toBe(400);
    expect(await json(reused)).toMatchObject({ error: 'invalid_grant' });

    expect((await connect()).refresh).toBeUndefined();
    expect((await connect({ prompt: 'consent' })).refresh).toBeDefined();
    expect((await connect({ access_type: undefined, prompt: 'consent' })).refresh).toBeUndefined();
  });

  it('rejects wrong redirect, wrong secret and missing PKCE verifier', async () => {
    const code = await codeFrom(authorizeUrl());
    expect(
      await json(await exchange(code, { redirect_uri: `${sb.publicUrl}/b/youtube/oauth/callback` })),
    ).toMatchObject({
      error: 'redirect_uri_mismatch',
    });
    const wrong = await exchange(code, { client_secret: 'nope' });
    expect(wrong.status).toBe(401);
    expect(await json(wrong)).toMatchObject({ error: 'invalid_client' });

    const { verifier, challenge } = pkcePair();
    const pkceCode = await codeFrom(authorizeUrl({ code_challenge: challenge, code_challenge_method: 'S256' }));
    expect(await json(await exchange(pkceCode))).toMatchObject({
      error: 'invalid_grant',
      error_description: 'Missing code verifier.',
    });
    expect((await exchange(pkceCode, { code_verifier: verifier })).status).toBe(200);
  });

  it('lists the channel and its playlist; expired tokens get 401 UNAUTHENTICATED', async () => {
    const { access } = await connect();
    const res = await channels(access);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.kind).toBe('youtube#channelListResponse');
    const channel = body.items?.[0];
    expect(String(channel?.id)).toMatch(/^UC[\w-]{22}$/);
    expect(String(channel?.contentDetails?.relatedPlaylists?.uploads)).toMatch(/^UU/);
    const playlists = await json(
      await fetch(sb.url('youtube', '/youtube/v3/playlists?part=snippet&mine=true'), bearer(access)),
    );
    expect(playlists.items).toHaveLength(1);
    expect(playlists.items?.[0]?.snippet?.channelId).toBe(channel?.id);
    const userinfo = await json(await fetch(sb.url('youtube', '/oauth2/v3/userinfo'), bearer(access)));
    expect(userinfo).toMatchObject({ email: 'sandbox-user@sandbox.example', email_verified: true });

    sb.advance(3600);
    const expired = await channels(access);
    expect(expired.status).toBe(401);
    expect((await json(expired)).error).toMatchObject({
      code: 401,
      status: 'UNAUTHENTICATED',
      errors: [{ reason: 'authError' }],
    });
  });

  it('refreshes without rotation; revoking kills the grant', async () => {
    const { refresh: rt } = await connect();
    const res = await refresh(String(rt));
    const body = await json(res);
    expect(res.status).toBe(200);
    expect(body.refresh_token).toBeUndefined();
    expect((await channels(String(body.access_token))).status).toBe(200);

    const revoke = await fetch(withQuery(sb.url('youtube', '/revoke'), { token: String(rt) }), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(revoke.status).toBe(200);
    expect(await json(await refresh(String(rt)))).toMatchObject({
      error: 'invalid_grant',
      error_description: 'Token has been expired or revoked.',
    });
    expect((await channels(String(body.access_token))).status).toBe(401);
  });

  it('answers Data API faults and treats channels.list as both profile and pages', async () => {
    const { access, refresh: rt } = await connect();
    await sb.fault({ platform: 'youtube', operation: 'pages', fault: 'rate_limit' });
    const limited = await channels(access);
    expect(limited.status).toBe(429);
    expect((await json(limited)).error).toMatchObject({ errors: [{ reason: 'rateLimitExceeded' }] });
    await sb.fault({ platform: 'youtube', operation: 'profile', fault: 'server_error' });
    expect((await channels(access)).status).toBe(503);
    await sb.fault({ platform: 'youtube', operation: 'token', fault: 'revoke' });
    expect(await json(await refresh(String(rt)))).toMatchObject({ error: 'invalid_grant' });
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_APPS } from '../../src/sandbox/index.ts';
import { autoApprove, bearer, codeFrom, json, pkcePair, postForm, withQuery } from './helpers.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';

const app = SANDBOX_APPS.tiktok;
const SCOPES = 'user.info.basic,user.info.profile,video.publish';
let sb: TestSandbox;

function authorizeUrl(extra: Record<string, string | undefined> = {}): string {
  return withQuery(sb.url('tiktok', '/v2/auth/authorize/'), {
    client_key: app.clientId,
    response_type: 'code',
    scope: SCOPES,
    redirect_uri: sb.callback('tiktok'),
    state: 'st-tt',
    ...extra,
  });
}

const tokenUrl = () => sb.url('tiktok', '/v2/oauth/token/');

function exchange(code: string, overrides: Record<string, string | undefined> = {}): Promise<Response> {
  return postForm(tokenUrl(), {
    client_key: app.clientId,
    client_secret: app.clientSecret,
    code,
    grant_type: 'authorization_code',
    redirect_uri: sb.callback('tiktok'),
    ...overrides,
  });
}

function refresh(token: string): Promise<Response> {
  return postForm(tokenUrl(), {
    client_key: app.clientId,
    client_secret: app.clientSecret,
    grant_type: 'refresh_token',
    refresh_token: token,
  });
}

const userInfo = (token: string, fields = 'open_id,display_name,username') =>
  fetch(sb.url('tiktok', `/v2/user/info/?fields=${fields}`), bearer(token));

async function connect() {
  const body = await json(await exchange(await codeFrom(authorizeUrl())));
  return { access: String(body.access_token), refresh: String(body.refresh_token), openId: String(body.open_id) };
}

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

describe('tiktok login kit', () => {
  it('authorizes with consent page, auto-approve returns code, scopes and state', async () => {
    expect(await (await fetch(authorizeUrl())).text()).toContain('video.publish');
    const location = await autoApprove(authorizeUrl());
    expect(location.searchParams.get('scopes')).toBe(SCOPES);
    expect(location.searchParams.get('state')).toBe('st-tt');
    const bad = await fetch(authorizeUrl({ scope: 'user.info.basic,video.nope' }), { redirect: 'manual' });
    expect(new URL(bad.headers.get('location') ?? '').searchParams.get('error')).toBe('invalid_scope');
  });

  it('exchanges a code once, with 2 h / 180 d lifetimes and act./rft. tokens', async () => {
    const code = await codeFrom(authorizeUrl());
    const res = await exchange(code);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({
      expires_in: 7200,
      refresh_expires_in: 15_552_000,
      token_type: 'Bearer',
      scope: SCOPES,
    });
    expect(String(body.access_token)).toMatch(/^act\./);
    expect(String(body.refresh_token)).toMatch(/^rft\./);
    const again = await exchange(code);
    expect(again.status).toBe(400);
    expect(await json(again)).toMatchObject({ error: 'invalid_grant' });
  });

  it('rejects a wrong redirect_uri, a wrong secret and a missing PKCE verifier', async () => {
    const code = await codeFrom(authorizeUrl());
    expect(await json(await exchange(code, { redirect_uri: `${sb.publicUrl}/q/tiktok/oauth/callback` }))).toMatchObject(
      { error: 'invalid_grant' },
    );
    const wrongSecret = await exchange(code, { client_secret: 'bad' });
    expect(wrongSecret.status).toBe(401);
    expect(await json(wrongSecret)).toMatchObject({ error: 'invalid_client' });

    const { verifier, challenge } = pkcePair();
    const pkceCode = await codeFrom(authorizeUrl({ code_challenge: challenge, code_challenge_method: 'S256' }));
    const missing = await exchange(pkceCode);
    expect(missing.status).toBe(400);
    expect(await json(missing)).toMatchObject({ error: 'invalid_grant' });
    expect((await exchange(pkceCode, { code_verifier: pkcePair().verifier })).status).toBe(400);
    expect((await exchange(pkceCode, { code_verifier: verifier })).status).toBe(200);
  });

  it('reads user info per granted scope and fails expired tokens with access_token_invalid', async () => {
    const { access, openId } = await connect();
    const res = await userInfo(access);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.error).toMatchObject({ code: 'ok' });
    expect(body.data?.user).toMatchObject({ open_id: openId, username: 'sandbox.user' });
    const stats = await userInfo(access, 'open_id,follower_count');
    expect(stats.status).toBe(401);
    expect((await json(stats)).error).toMatchObject({ code: 'scope_permission_missed' });

    sb.advance(7200);
    const expired = await userInfo(access);
    expect(expired.status).toBe(401);
    expect(await json(expired)).toMatchObject({ data: {}, error: { code: 'access_token_invalid' } });
  });

  it('rotates refresh tokens: the old one dies after use', async () => {
    const first = await connect();
    const res = await refresh(first.refresh);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.refresh_token).not.toBe(first.refresh);
    const reuse = await refresh(first.refresh);
    expect(reuse.status).toBe(400);
    expect(await json(reuse)).toMatchObject({ error: 'invalid_grant' });
    expect((await refresh(String(body.refresh_token))).status).toBe(200);
  });

  it('revokes access', async () => {
    const { access, refresh: rt } = await connect();
    const res = await postForm(sb.url('tiktok', '/v2/oauth/revoke/'), {
      client_key: app.clientId,
      client_secret: app.clientSecret,
      token: access,
    });
    expect(res.status).toBe(200);
    expect((await userInfo(access)).status).toBe(401);
    expect((await refresh(rt)).status).toBe(400);
  });

  it('answers faults: rate limit, refresh-only revoke, server errors on the token endpoint', async () => {
    const { access, refresh: rt } = await connect();
    await sb.fault({ platform: 'tiktok', operation: 'profile', fault: 'rate_limit' });
    const limited = await userInfo(access);
    expect(limited.status).toBe(429);
    expect((await json(limited)).error).toMatchObject({ code: 'rate_limit_exceeded' });

    await sb.fault({ platform: 'tiktok', operation: 'refresh', fault: 'revoke' });
    const revoked = await refresh(rt);
    expect(await json(revoked)).toMatchObject({ error: 'invalid_grant' });
    expect((await userInfo(access)).status).toBe(401);

    await sb.fault({ platform: 'tiktok', operation: 'token', fault: 'server_error' });
    const failed = await exchange('whatever');
    expect(failed.status).toBe(500);
    expect(await json(failed)).toMatchObject({ error: 'server_error' });
  });
});

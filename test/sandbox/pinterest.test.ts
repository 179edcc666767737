import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_APPS } from '../../src/sandbox/index.ts';
import { basic, bearer, codeFrom, json, postForm, withQuery } from './helpers.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';

const app = SANDBOX_APPS.pinterest;
const SCOPES = 'boards:read,boards:write,pins:read,pins:write,user_accounts:read';
let sb: TestSandbox;

function authorizeUrl(): string {
  return withQuery(sb.url('pinterest', '/oauth/'), {
    client_id: app.clientId,
    redirect_uri: sb.callback('pinterest'),
    response_type: 'code',
    scope: SCOPES,
    state: 'st-pin',
  });
}

const tokenUrl = () => sb.url('pinterest', '/v5/oauth/token');
const auth = (secret = app.clientSecret) => basic(app.clientId, secret);

function exchange(code: string, overrides: Record<string, string> = {}, headers = auth()): Promise<Response> {
  return postForm(
    tokenUrl(),
    { grant_type: 'authorization_code', code, redirect_uri: sb.callback('pinterest'), ...overrides },
    headers,
  );
}

const refresh = (token: string) => postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: token }, auth());

async function connect() {
  const body = await json(await exchange(await codeFrom(authorizeUrl())));
  return { access: String(body.access_token), refresh: String(body.refresh_token) };
}

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

describe('pinterest', () => {
  it('authorizes and exchanges a code once with Basic client auth', async () => {
    expect(await (await fetch(authorizeUrl())).text()).toContain('user_accounts:read');
    const code = await codeFrom(authorizeUrl());
    const noBasic = await postForm(tokenUrl(), {
      grant_type: 'authorization_code',
      code,
      redirect_uri: sb.callback('pinterest'),
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    expect(noBasic.status).toBe(401);
    expect(await json(noBasic)).toEqual({ code: 2, message: 'Authentication failed.' });
    expect((await exchange(code, {}, auth('wrong'))).status).toBe(401);
    expect((await exchange(code, { redirect_uri: `${sb.publicUrl}/c/pinterest/oauth/callback` })).status).toBe(400);

    const body = await json(await exchange(code));
    expect(body).toMatchObject({
      response_type: 'authorization_code',
      token_type: 'bearer',
      expires_in: 2_592_000,
      refresh_token_expires_in: 5_184_000,
    });
    expect(String(body.access_token)).toMatch(/^pina_/);
    expect(String(body.refresh_token)).toMatch(/^pinr_/);
    const again = await exchange(code);
    expect(again.status).toBe(400);
    expect(await json(again)).toMatchObject({ code: 1 });
  });

  it('reads the user account and two boards; expired tokens get 401 code 2', async () => {
    const { access } = await connect();
    const me = await json(await fetch(sb.url('pinterest', '/v5/user_account'), bearer(access)));
    expect(me).toMatchObject({ account_type: 'BUSINESS', username: 'sandboxuser', board_count: 2 });
    const boards = await json(await fetch(sb.url('pinterest', '/v5/boards?page_size=25'), bearer(access)));
    expect(boards.items).toHaveLength(2);
    expect(String(boards.items?.[0]?.id)).toMatch(/^\d+$/);
    expect(boards.bookmark).toBeNull();
    sb.advance(2_592_000);
    const expired = await fetch(sb.url('pinterest', '/v5/user_account'), bearer(access));
    expect(expired.status).toBe(401);
    expect(await json(expired)).toEqual({ code: 2, message: 'Authentication failed.' });
  });

  it('rotates refresh tokens (continuous refresh) and revokes', async () => {
    const first = await connect();
    sb.advance(86_400);
    const body = await json(await refresh(first.refresh));
    expect(body).toMatchObject({ response_type: 'refresh_token', refresh_token_expires_in: 5_184_000 });
    expect(body.refresh_token).not.toBe(first.refresh);
    expect((await refresh(first.refresh)).status).toBe(400);

    const revoke = await postForm(
      sb.url('pinterest', '/v5/oauth/token/revoke'),
      { token: String(body.access_token) },
      auth(),
    );
    expect(revoke.status).toBe(200);
    expect((await fetch(sb.url('pinterest', '/v5/user_account'), bearer(String(body.access_token)))).status).toBe(401);
    expect((await refresh(String(body.refresh_token))).status).toBe(400);
  });

  it('answers faults with Pinterest error bodies', async () => {
    const { access } = await connect();
    await sb.fault({ platform: 'pinterest', operation: 'pages', fault: 'rate_limit' });
    const limited = await fetch(sb.url('pinterest', '/v5/boards'), bearer(access));
    expect(limited.status).toBe(429);
    expect(await json(limited)).toMatchObject({ code: 8 });
    await sb.fault({ platform: 'pinterest', operation: 'profile', fault: 'expire_token' });
    expect((await fetch(sb.url('pinterest', '/v5/user_account'), bearer(access))).status).toBe(401);
  });
});

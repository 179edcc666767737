import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_APPS } from '../../src/sandbox/index.ts';
import { autoApprove, bearer, json, postForm, withQuery } from './helpers.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';

const app = SANDBOX_APPS.instagram;
let sb: TestSandbox;

function authorizeUrl(): string {
  return withQuery(sb.url('instagram', '/oauth/authorize'), {
    client_id: app.clientId,
    redirect_uri: sb.callback('instagram'),
    response_type: 'code',
    scope: 'instagram_business_basic,instagram_business_content_publish',
    state: 'st-ig',
  });
}

function exchange(code: string, overrides: Record<string, string> = {}): Promise<Response> {
  return postForm(sb.url('instagram', '/oauth/access_token'), {
    client_id: app.clientId,
    client_secret: app.clientSecret,
    grant_type: 'authorization_code',
    redirect_uri: sb.callback('instagram'),
    code,
    ...overrides,
  });
}

async function code(): Promise<string> {
  return (await autoApprove(authorizeUrl())).searchParams.get('code') ?? '';
}

async function longLived(): Promise<string> {
  const short = String((await json(await exchange(await code()))).access_token);
  const res = await fetch(
    withQuery(sb.url('instagram', '/access_token'), {
      grant_type: 'ig_exchange_token',
      client_secret: app.clientSecret,
      access_token: short,
    }),
  );
  return String((await json(res)).access_token);
}

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

describe('instagram login', () => {
  it('serves the consent page and redirects with code, state and the trailing #_', async () => {
    expect((await fetch(authorizeUrl())).status).toBe(200);
    const res = await fetch(authorizeUrl(), { redirect: 'manual', headers: { 'x-sandbox-auto-approve': '1' } });
    const location = new URL(res.headers.get('location') ?? '');
    expect(location.hash).toBe('#_');
    expect(location.searchParams.get('state')).toBe('st-ig');
  });

  it('exchanges a code once for a 1-hour IGAA token; errors use the api.instagram.com shape', async () => {
    const c = await code();
    expect(await json(await exchange(c, { redirect_uri: `${sb.publicUrl}/y/instagram/oauth/callback` }))).toMatchObject(
      {
        error_type: 'OAuthException',
        code: 400,
      },
    );
    expect(await json(await exchange(c, { client_secret: 'x' }))).toMatchObject({
      error_message: 'Error validating client secret.',
    });
    const body = await json(await exchange(c));
    expect(String(body.access_token)).toMatch(/^IGAA/);
    expect(typeof body.user_id).toBe('number');
    expect(body.permissions).toBe('instagram_business_basic,instagram_business_content_publish');
    const again = await exchange(c);
    expect(again.status).toBe(400);
    expect(await json(again)).toMatchObject({ error_message: 'Matching code was not found or was already used' });
  });

  it('reads /me on the versioned host only, and fails expired tokens with 190/463', async () => {
    const token = await longLived();
    const me = await json(
      await fetch(sb.url('instagram', '/v21.0/me?fields=user_id,username,account_type'), bearer(token)),
    );
    expect(me).toMatchObject({ account_type: 'BUSINESS' });
    expect(String(me.user_id)).toMatch(/^17841/);
    const unversioned = await fetch(sb.url('instagram', '/me?fields=id'), bearer(token));
    expect(unversioned.status).toBe(400);
    expect((await json(unversioned)).error).toMatchObject({ message: 'Unsupported request - method type: get' });
    sb.advance(5_183_944);
    const expired = await fetch(sb.url('instagram', '/v21.0/me'), bearer(token));
    expect(expired.status).toBe(400);
    expect((await json(expired)).error).toMatchObject({ code: 190, error_subcode: 463 });
  });

  it('refreshes a long-lived token only once it is 24 h old', async () => {
    const token = await longLived();
    const refresh = () =>
      fetch(
        withQuery(sb.url('instagram', '/refresh_access_token'), {
          grant_type: 'ig_refresh_token',
          access_token: token,
        }),
      );
    expect((await refresh()).status).toBe(400);
    sb.advance(86_400);
    const res = await refresh();
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 5_183_944 });
    expect(body.access_token).not.toBe(token);
  });

  it('answers the revoke fault on profile reads and refuses revoke on operations that do not exist', async () => {
    const token = await longLived();
    await sb.fault({ platform: 'instagram', operation: 'profile', fault: 'revoke' });
    expect((await json(await fetch(sb.url('instagram', '/v21.0/me'), bearer(token)))).error).toMatchObject({
      code: 190,
    });
    expect(
      (await sb.control('POST', '_faults', { platform: 'instagram', operation: 'revoke', fault: 'server_error' }))
        .status,
    ).toBe(400);
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_APPS } from '../../src/sandbox/index.ts';
import { bearer, codeFrom, json, postForm, withQuery } from './helpers.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';

const app = SANDBOX_APPS.linkedin;
const SCOPES = 'openid profile email w_member_social rw_organization_admin w_organization_social';
let sb: TestSandbox;

function authorizeUrl(extra: Record<string, string> = {}): string {
  return withQuery(sb.url('linkedin', '/oauth/v2/authorization'), {
    response_type: 'code',
    client_id: app.clientId,
    redirect_uri: sb.callback('linkedin'),
    state: 'csrf-123',
    scope: SCOPES,
    ...extra,
  });
}

function exchange(code: string, overrides: Record<string, string | undefined> = {}): Promise<Response> {
  return postForm(sb.url('linkedin', '/oauth/v2/accessToken'), {
    grant_type: 'authorization_code',
    code,
    redirect_uri: sb.callback('linkedin'),
    client_id: app.clientId,
    client_secret: app.clientSecret,
    ...overrides,
  });
}

async function connect(): Promise<{ access: string; refresh: string }> {
  const body = await json(await exchange(await codeFrom(authorizeUrl())));
  return { access: String(body.access_token), refresh: String(body.refresh_token) };
}

const rest = (token: string, version = '202610') =>
  bearer(token, { 'linkedin-version': version, 'x-restli-protocol-version': '2.0.0' });

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

describe('linkedin oauth', () => {
  it('shows a consent page and approves with code + state on auto-approve', async () => {
    const page = await fetch(authorizeUrl());
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('value="approve"');
    expect(html).toContain('w_member_social');

    const res = await fetch(authorizeUrl(), { redirect: 'manual', headers: { 'x-sandbox-auto-approve': '1' } });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(sb.callback('linkedin'));
    expect(location.searchParams.get('state')).toBe('csrf-123');
    expect(location.searchParams.get('code')).toMatch(/^AQ/);
  });

  it('rejects unknown clients and unregistered redirects with an error page, bad scopes with a redirect', async () => {
    expect((await fetch(authorizeUrl({ client_id: 'nope' }))).status).toBe(400);
    expect((await fetch(authorizeUrl({ redirect_uri: 'https://evil.example/linkedin/oauth/callback' }))).status).toBe(
      400,
    );
    const res = await fetch(authorizeUrl({ scope: 'openid r_nonsense' }), { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location') ?? '');
    expect(location.searchParams.get('error')).toBe('unauthorized_scope_error');
    expect(location.searchParams.get('state')).toBe('csrf-123');
  });

  it('exchanges a code once, with real lifetimes', async () => {
    await sb.lenient('linkedin_no_refresh'); // an app with programmatic refresh tokens
    const code = await codeFrom(authorizeUrl());
    const res = await exchange(code);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ expires_in: 5_184_000, refresh_token_expires_in: 31_536_000, token_type: 'Bearer' });
    expect(String(body.scope).split(',')).toContain('w_member_social');
    expect(String(body.id_token).split('.')).toHaveLength(3);

    const again = await exchange(code);
    expect(again.status).toBe(400);
    expect(await json(again)).toMatchObject({ error: 'invalid_request' });
  });

  it('fails the exchange on a wrong redirect_uri, a wrong secret and an expired code', async () => {
    const code = await codeFrom(authorizeUrl());
    const wrongRedirect = await exchange(code, { redirect_uri: `${sb.publicUrl}/other/linkedin/oauth/callback` });
    expect(wrongRedirect.status).toBe(400);
    expect(String((await json(wrongRedirect)).error_description)).toMatch(/does not match/);

    const wrongSecret = await exchange(code, { client_secret: 'wrong' });
    expect(wrongSecret.status).toBe(401);
    expect(await json(wrongSecret)).toMatchObject({ error: 'invalid_client' });

    sb.advance(31 * 60);
    expect((await exchange(code)).status).toBe(400);
  });

  it('reads userinfo, and an expired token fails with 401 EXPIRED_ACCESS_TOKEN', async () => {
    const { access } = await connect();
    const me = await fetch(sb.url('linkedin', '/v2/userinfo'), bearer(access));
    expect(me.status).toBe(200);
    const body = await json(me);
    expect(body).toMatchObject({ email_verified: true });
    expect(String(body.sub)).toMatch(/^[A-Za-z0-9]{10}$/);

    expect(await json(await fetch(sb.url('linkedin', '/v2/userinfo')))).toMatchObject({
      status: 401,
      serviceErrorCode: 65604,
    });

    sb.advance(5_184_000);
    const expired = await fetch(sb.url('linkedin', '/v2/userinfo'), bearer(access));
    expect(expired.status).toBe(401);
    expect(await json(expired)).toMatchObject({ status: 401, serviceErrorCode: 65601, code: 'EXPIRED_ACCESS_TOKEN' });
  });

  it('lists admin organizations, requiring the versioning headers', async () => {
    const { access } = await connect();
    const acls = sb.url('linkedin', '/rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED');
    const res = await fetch(acls, rest(access));
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.elements).toHaveLength(2);
    expect(String(body.elements?.[0]?.organization)).toMatch(/^urn:li:organization:\d+$/);

    const ids = [0, 1].map((i) => String(body.elements?.[i]?.organization).split(':').pop());
    const lookup = await json(
      await fetch(sb.url('linkedin', `/rest/organizationsLookup?ids=List(${ids.join(',')})`), rest(access)),
    );
    expect(Object.keys(lookup.results ?? {})).toEqual(ids);

    const noVersion = await fetch(acls, bearer(access, { 'x-restli-protocol-version': '2.0.0' }));
    expect(noVersion.status).toBe(400);
    expect(await json(noVersion)).toMatchObject({ code: 'VERSION_MISSING' });
    const sunset = await fetch(acls, rest(access, '202301'));
    expect(sunset.status).toBe(426);
    expect(await json(sunset)).toMatchObject({ code: 'NONEXISTENT_VERSION' });
    expect((await fetch(acls, bearer(access, { 'linkedin-version': '202610' }))).status).toBe(400);
  });

  it('refreshes without rotating the refresh token and without extending its lifetime', async () => {
    await sb.lenient('linkedin_no_refresh'); // an app with programmatic refresh tokens
    const { refresh } = await connect();
    sb.advance(86_400);
    const res = await postForm(sb.url('linkedin', '/oauth/v2/accessToken'), {
      grant_type: 'refresh_token',
      refresh_token: refresh,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.refresh_token).toBe(refresh);
    expect(body.refresh_token_expires_in).toBe(31_536_000 - 86_400);
    expect((await fetch(sb.url('linkedin', '/v2/userinfo'), bearer(String(body.access_token)))).status).toBe(200);
  });

  it('revokes a token, killing access and refresh', async () => {
    const { access, refresh } = await connect();
    const res = await postForm(sb.url('linkedin', '/oauth/v2/revoke'), {
      client_id: app.clientId,
      client_secret: app.clientSecret,
      token: access,
    });
    expect(res.status).toBe(200);
    const me = await fetch(sb.url('linkedin', '/v2/userinfo'), bearer(access));
    expect(await json(me)).toMatchObject({ status: 401, serviceErrorCode: 65602 });
    const refreshed = await postForm(sb.url('linkedin', '/oauth/v2/accessToken'), {
      grant_type: 'refresh_token',
      refresh_token: refresh,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    expect(refreshed.status).toBe(400);
  });

  it('answers faults in LinkedIn shapes', async () => {
    const { access } = await connect();
    const me = () => fetch(sb.url('linkedin', '/v2/userinfo'), bearer(access));
    expect(
      (await sb.control('POST', '_faults', { platform: 'linkedin', operation: 'profile', fault: 'rate_limit' })).status,
    ).toBe(201);
    const limited = await me();
    expect(limited.status).toBe(429);
    expect(await json(limited)).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS' });
    expect((await me()).status).toBe(200);

    await sb.fault({ platform: 'linkedin', operation: 'pages', fault: 'server_error' });
    expect((await fetch(sb.url('linkedin', '/rest/organizationAcls?q=roleAssignee'), rest(access))).status).toBe(500);

    await sb.fault({ platform: 'linkedin', operation: 'profile', fault: 'expire_token' });
    expect(await json(await me())).toMatchObject({ serviceErrorCode: 65601 });

    await sb.fault({ platform: 'linkedin', operation: 'token', fault: 'expire_token' });
    const expiredCode = await exchange(await codeFrom(authorizeUrl()));
    expect(expiredCode.status).toBe(400);
    expect(await json(expiredCode)).toMatchObject({ error: 'invalid_request' });
  });

  it('returns unknown paths in LinkedIn shape', async () => {
    const res = await fetch(sb.url('linkedin', '/v2/nothing'));
    expect(res.status).toBe(404);
    expect(await json(res)).toMatchObject({ status: 404, message: 'Resource /v2/nothing does not exist' });
  });
});

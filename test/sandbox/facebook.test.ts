import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_APPS } from '../../src/sandbox/index.ts';
import { bearer, codeFrom, json, withQuery } from './helpers.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';

const app = SANDBOX_APPS.facebook;
const V = 'v21.0';
const SCOPES =
  'pages_show_list,pages_manage_posts,pages_read_engagement,instagram_basic,instagram_content_publish,email';
let sb: TestSandbox;

function authorizeUrl(extra: Record<string, string> = {}): string {
  return withQuery(sb.url('facebook', `/${V}/dialog/oauth`), {
    client_id: app.clientId,
    redirect_uri: sb.callback('facebook'),
    state: 'st-fb',
    response_type: 'code',
    scope: SCOPES,
    ...extra,
  });
}

function tokenUrl(params: Record<string, string>): string {
  return withQuery(sb.url('facebook', `/${V}/oauth/access_token`), params);
}

function exchange(code: string, overrides: Record<string, string> = {}): Promise<Response> {
  return fetch(
    tokenUrl({
      client_id: app.clientId,
      client_secret: app.clientSecret,
      redirect_uri: sb.callback('facebook'),
      code,
      ...overrides,
    }),
  );
}

async function longLivedToken(): Promise<string> {
  const short = String((await json(await exchange(await codeFrom(authorizeUrl())))).access_token);
  const res = await fetch(
    tokenUrl({
      grant_type: 'fb_exchange_token',
      client_id: app.clientId,
      client_secret: app.clientSecret,
      fb_exchange_token: short,
    }),
  );
  return String((await json(res)).access_token);
}

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

describe('facebook login', () => {
  it('shows the dialog, auto-approves, and denies with access_denied', async () => {
    const page = await fetch(authorizeUrl());
    expect(page.status).toBe(200);
    const html = await page.text();
    const pending = /name="pending" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const action = /action="([^"]+)"/.exec(html)?.[1] ?? '';
    const denied = await fetch(`${sb.publicUrl}${action}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ pending, decision: 'deny' }),
    });
    expect(denied.status).toBe(302);
    const location = new URL(denied.headers.get('location') ?? '');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('error_reason')).toBe('user_denied');
    expect(location.searchParams.get('state')).toBe('st-fb');

    expect(await codeFrom(authorizeUrl())).toMatch(/^AQ/);
    expect((await fetch(authorizeUrl({ scope: 'pages_show_list,bogus_scope' }))).status).toBe(400);
  });

  it('exchanges the code for a short-lived token once; wrong redirect and secret fail in Graph shape', async () => {
    const code = await codeFrom(authorizeUrl());
    expect((await exchange(code, { redirect_uri: `${sb.publicUrl}/x/facebook/oauth/callback` })).status).toBe(400);
    const badSecret = await json(await exchange(code, { client_secret: 'nope' }));
    expect(badSecret.error).toMatchObject({
      type: 'OAuthException',
      code: 1,
      message: 'Error validating client secret.',
    });

    const ok = await json(await exchange(code));
    expect(ok).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(String(ok.access_token)).toMatch(/^EAA/);

    const reused = await exchange(code);
    expect(reused.status).toBe(400);
    expect((await json(reused)).error).toMatchObject({ code: 100, error_subcode: 36009 });
  });

  it('extends to a long-lived token and lists pages with never-expiring page tokens and the linked IG account', async () => {
    const user = await longLivedToken();
    const me = await json(
      await fetch(sb.url('facebook', `/${V}/me?fields=id,name,email,picture.type(large)`), bearer(user)),
    );
    expect(me).toMatchObject({ email: 'sandbox-user@sandbox.example' });
    expect(me.picture?.data?.width).toBe(200);

    const fields = 'id,name,access_token,tasks,instagram_business_account{id,username}';
    const pages = await json(
      await fetch(sb.url('facebook', `/${V}/me/accounts?fields=${encodeURIComponent(fields)}`), bearer(user)),
    );
    expect(pages.data).toHaveLength(2);
    const linked = pages.data?.[0];
    expect(String(linked?.instagram_business_account?.id)).toMatch(/^17841\d{12}$/);
    expect(pages.data?.[1]?.instagram_business_account).toBeUndefined();

    const pageToken = String(linked?.access_token);
    const debug = await json(
      await fetch(
        sb.url(
          'facebook',
          `/${V}/debug_token?input_token=${pageToken}&access_token=${app.clientId}|${app.clientSecret}`,
        ),
      ),
    );
    expect(debug.data).toMatchObject({ type: 'PAGE', expires_at: 0, is_valid: true });

    const asPage = await json(await fetch(sb.url('facebook', `/${V}/me?fields=id,name`), bearer(pageToken)));
    expect(asPage.id).toBe(linked?.id);
    const ig = await fetch(
      sb.url('facebook', `/${V}/${String(linked?.instagram_business_account?.id)}?fields=username,followers_count`),
      bearer(pageToken),
    );
    expect(ig.status).toBe(200);
    expect(await json(ig)).toMatchObject({ followers_count: 2345 });

    const unknown = await json(await fetch(sb.url('facebook', `/${V}/me?fields=id,nonsense`), bearer(user)));
    expect(unknown.error).toMatchObject({ code: 100 });
  });

  it('fails an expired user token with code 190 / subcode 463, and page tokens of short tokens die with them', async () => {
    const short = String((await json(await exchange(await codeFrom(authorizeUrl())))).access_token);
    const pages = await json(await fetch(sb.url('facebook', `/${V}/me/accounts`), bearer(short)));
    const pageToken = String(pages.data?.[0]?.access_token);
    sb.advance(3601);
    for (const token of [short, pageToken]) {
      const res = await fetch(sb.url('facebook', `/${V}/me`), bearer(token));
      expect(res.status).toBe(400);
      expect((await json(res)).error).toMatchObject({ type: 'OAuthException', code: 190, error_subcode: 463 });
    }
    const exchangeExpired = await fetch(
      tokenUrl({
        grant_type: 'fb_exchange_token',
        client_id: app.clientId,
        client_secret: app.clientSecret,
        fb_exchange_token: short,
      }),
    );
    expect((await json(exchangeExpired)).error).toMatchObject({ code: 190 });
  });

  it('de-authorizes with DELETE /me/permissions', async () => {
    const user = await longLivedToken();
    const del = await fetch(sb.url('facebook', `/${V}/me/permissions`), { method: 'DELETE', ...bearer(user) });
    expect(await json(del)).toEqual({ success: true });
    const after = await json(await fetch(sb.url('facebook', `/${V}/me`), bearer(user)));
    expect(after.error).toMatchObject({ code: 190, error_subcode: 458 });
  });

  it('answers faults in Graph shapes and counts `times`', async () => {
    const user = await longLivedToken();
    const me = () => fetch(sb.url('facebook', `/${V}/me`), bearer(user));
    await sb.fault({ platform: 'facebook', operation: 'profile', fault: 'rate_limit', times: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await me();
      expect(res.status).toBe(400);
      expect(res.headers.get('x-app-usage')).toContain('call_count');
      expect((await json(res)).error).toMatchObject({ code: 4, is_transient: true });
    }
    expect((await me()).status).toBe(200);

    await sb.fault({ platform: 'facebook', operation: 'pages', fault: 'server_error' });
    const failing = await fetch(sb.url('facebook', `/${V}/me/accounts`), bearer(user));
    expect(failing.status).toBe(500);
    expect((await json(failing)).error).toMatchObject({ code: 2, is_transient: true });

    await sb.fault({ platform: 'facebook', operation: 'profile', fault: 'revoke' });
    expect((await json(await me())).error).toMatchObject({ code: 190, error_subcode: 458 });
    expect(
      (await sb.control('POST', '_faults', { platform: 'facebook', operation: 'refresh', fault: 'rate_limit' })).status,
    ).toBe(400);
  });
});

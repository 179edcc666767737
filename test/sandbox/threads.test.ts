import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_APPS } from '../../src/sandbox/index.ts';
import { bearer, codeFrom, json, postForm, withQuery } from './helpers.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';

const app = SANDBOX_APPS.threads;
let sb: TestSandbox;

function authorizeUrl(): string {
  return withQuery(sb.url('threads', '/oauth/authorize'), {
    client_id: app.clientId,
    redirect_uri: sb.callback('threads'),
    scope: 'threads_basic,threads_content_publish',
    response_type: 'code',
    state: 'st-th',
  });
}

function exchange(code: string, overrides: Record<string, string> = {}): Promise<Response> {
  return postForm(sb.url('threads', '/oauth/access_token'), {
    client_id: app.clientId,
    client_secret: app.clientSecret,
    grant_type: 'authorization_code',
    redirect_uri: sb.callback('threads'),
    code,
    ...overrides,
  });
}

async function longLived(): Promise<string> {
  const short = String((await json(await exchange(await codeFrom(authorizeUrl())))).access_token);
  const res = await fetch(
    withQuery(sb.url('threads', '/access_token'), {
      grant_type: 'th_exchange_token',
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

describe('threads', () => {
  it('authorizes, then exchanges a code exactly once', async () => {
    expect(await (await fetch(authorizeUrl())).text()).toContain('threads_content_publish');
    const code = await codeFrom(authorizeUrl());
    expect((await exchange(code, { redirect_uri: `${sb.publicUrl}/z/threads/oauth/callback` })).status).toBe(400);
    expect((await json(await exchange(code, { client_secret: 'bad' }))).error).toMatchObject({ code: 1 });
    const body = await json(await exchange(code));
    expect(String(body.access_token)).toMatch(/^THAA/);
    expect(typeof body.user_id).toBe('number');
    expect((await json(await exchange(code))).error).toMatchObject({ code: 100, error_subcode: 36009 });
  });

  it('reads /v1.0/me and fails an expired short token', async () => {
    const short = String((await json(await exchange(await codeFrom(authorizeUrl())))).access_token);
    const me = await json(
      await fetch(sb.url('threads', '/v1.0/me?fields=id,username,threads_profile_picture_url'), bearer(short)),
    );
    expect(me).toMatchObject({ username: 'sandbox_user' });
    sb.advance(3600);
    const expired = await fetch(sb.url('threads', '/v1.0/me'), bearer(short));
    expect(expired.status).toBe(400);
    expect((await json(expired)).error).toMatchObject({ code: 190, error_subcode: 463 });
  });

  it('exchanges for a 60-day token and refreshes it after 24 h', async () => {
    const token = await longLived();
    sb.advance(2 * 86_400);
    const res = await fetch(
      withQuery(sb.url('threads', '/refresh_access_token'), { grant_type: 'th_refresh_token', access_token: token }),
    );
    const body = await json(res);
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 5_183_944 });
    expect((await fetch(sb.url('threads', '/v1.0/me'), bearer(String(body.access_token)))).status).toBe(200);
  });

  it('applies token faults to the refresh operation only', async () => {
    const token = await longLived();
    sb.advance(86_400);
    await sb.fault({ platform: 'threads', operation: 'refresh', fault: 'expire_token' });
    expect((await fetch(sb.url('threads', '/v1.0/me'), bearer(token))).status).toBe(200);
    const refresh = await fetch(
      withQuery(sb.url('threads', '/refresh_access_token'), { grant_type: 'th_refresh_token', access_token: token }),
    );
    expect((await json(refresh)).error).toMatchObject({ code: 190, error_subcode: 463 });
    expect((await fetch(sb.url('threads', '/v1.0/me'), bearer(token))).status).toBe(400);
  });
});

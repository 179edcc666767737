import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_APPS, sandboxBaseUrls } from '../../src/sandbox/index.ts';
import { bearer, codeFrom, json, postForm, withQuery } from './helpers.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';

const li = SANDBOX_APPS.linkedin;
let sb: TestSandbox;

function linkedinAuthorize(extra: Record<string, string> = {}): string {
  return withQuery(sb.url('linkedin', '/oauth/v2/authorization'), {
    response_type: 'code',
    client_id: li.clientId,
    redirect_uri: sb.callback('linkedin'),
    state: 's1',
    scope: 'openid profile',
    ...extra,
  });
}

async function linkedinToken(headers: Record<string, string> = {}): Promise<string> {
  const code = await codeFrom(linkedinAuthorize(), headers);
  const res = await postForm(sb.url('linkedin', '/oauth/v2/accessToken'), {
    grant_type: 'authorization_code',
    code,
    redirect_uri: sb.callback('linkedin'),
    client_id: li.clientId,
    client_secret: li.clientSecret,
  });
  return String((await json(res)).access_token);
}

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

describe('sandbox core', () => {
  it('base URLs put every network under {publicUrl}/sandbox/<platform>', () => {
    const urls = sandboxBaseUrls('http://herald.test:8080/');
    expect(urls.linkedin).toEqual({
      authBase: 'http://herald.test:8080/sandbox/linkedin',
      apiBase: 'http://herald.test:8080/sandbox/linkedin',
      webBase: 'http://herald.test:8080/sandbox/linkedin',
    });
    expect(Object.keys(urls.facebook)).toEqual(['authBase', 'graphBase', 'graphVideoBase', 'ruploadBase', 'webBase']);
    expect(urls.youtube.tokenBase).toBe('http://herald.test:8080/sandbox/youtube');
    expect(urls.bluesky.plc).toBe('http://herald.test:8080/sandbox/bluesky/plc');
  });

  it('completes the whole chain for a redirect-following client', async () => {
    const res = await fetch(linkedinAuthorize(), { headers: { 'x-sandbox-auto-approve': '1' } });
    expect(res.status).toBe(200);
    expect(res.url.startsWith(sb.callback('linkedin'))).toBe(true);
    expect((await json(res)).query).toMatchObject({ state: 's1' });
  });

  it('approves through the consent form as the chosen sandbox user', async () => {
    const html = await (await fetch(linkedinAuthorize())).text();
    const pending = /name="pending" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const res = await fetch(`${sb.root}/linkedin/_sandbox/consent`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ pending, decision: 'approve', user: 'bob-builder' }),
    });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location') ?? '');
    expect(location.searchParams.get('code')).toBeTruthy();
    const accounts = (await sb.state('linkedin')).accounts as { userKey: string; name: string }[];
    expect(accounts.map((a) => [a.userKey, a.name])).toEqual([['bob-builder', 'Bob Builder']]);
    // The pending request is single-use.
    const replay = await fetch(`${sb.root}/linkedin/_sandbox/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ pending, decision: 'approve' }),
    });
    expect(replay.status).toBe(400);
  });

  it('accepts redirects under publicUrl ending in /<platform>/oauth/callback, and configured extras, only', async () => {
    const ok = (uri: string) =>
      fetch(linkedinAuthorize({ redirect_uri: uri }), { redirect: 'manual' }).then((r) => r.status);
    expect(await ok(`${sb.publicUrl}/api/v1/linkedin/oauth/callback`)).toBe(200);
    expect(await ok(`${sb.publicUrl}/facebook/oauth/callback`)).toBe(400);
    expect(await ok(`${sb.publicUrl}/linkedin/oauth/callback?x=1`)).toBe(400);
    expect(await ok('http://other.example/linkedin/oauth/callback')).toBe(400);
    await fetch(`${sb.root}/_config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirectUris: ['http://other.example/cb'] }),
    });
    expect(await ok('http://other.example/cb')).toBe(200);
  });

  it('derives the same account ids for the same user, and different ones for another user', async () => {
    await linkedinToken();
    await linkedinToken({ 'x-sandbox-user': 'carol' });
    const before = (await sb.state('linkedin')).accounts as { id: string; userKey: string }[];
    await sb.reset();
    await linkedinToken();
    const after = (await sb.state('linkedin')).accounts as { id: string }[];
    expect(before).toHaveLength(2);
    expect(after[0]?.id).toBe(before.find((a) => a.userKey === 'sandbox-user')?.id);
  });

  it('records requests and tokens in _state, and DELETE _state resets everything', async () => {
    const token = await linkedinToken();
    await fetch(sb.url('linkedin', '/v2/userinfo'), bearer(token));
    const state = await sb.state('linkedin');
    const requests = state.requests as {
      method: string;
      path: string;
      status: number;
      headers: Record<string, string>;
    }[];
    const last = requests[requests.length - 1];
    expect(last).toMatchObject({ method: 'GET', path: '/sandbox/linkedin/v2/userinfo', status: 200 });
    expect(last?.headers.authorization).toBe(`Bearer ${token}`);
    expect((state.tokens as { token: string }[]).some((t) => t.token === token)).toBe(true);

    const all = await json(await fetch(`${sb.root}/_state`));
    expect(Object.keys(all)).toEqual([
      'linkedin',
      'facebook',
      'instagram',
      'threads',
      'tiktok',
      'youtube',
      'pinterest',
      'bluesky',
    ]);
    expect(all.facebook).toMatchObject({ accounts: [], tokens: [], requests: [], posts: [] });

    await fetch(`${sb.root}/_state`, { method: 'DELETE' });
    expect((await sb.state('linkedin')).tokens).toEqual([]);
    expect((await fetch(sb.url('linkedin', '/v2/userinfo'), bearer(token))).status).toBe(401);
  });

  it('validates and lists faults; DELETE clears them', async () => {
    expect(
      (await sb.control('POST', '_faults', { platform: 'myspace', operation: 'token', fault: 'rate_limit' })).status,
    ).toBe(400);
    expect(
      (await sb.control('POST', '_faults', { platform: 'linkedin', operation: 'teleport', fault: 'rate_limit' }))
        .status,
    ).toBe(400);
    expect(
      (await sb.control('POST', '_faults', { platform: 'linkedin', operation: 'authorize', fault: 'revoke' })).status,
    ).toBe(400);
    expect(
      (await sb.control('POST', '_faults', { platform: 'linkedin', operation: 'token', fault: 'melt' })).status,
    ).toBe(400);
    expect(
      (
        await sb.control('POST', '_faults', {
          platform: 'linkedin',
          operation: 'authorize',
          fault: 'server_error',
          times: 3,
        })
      ).status,
    ).toBe(201);

    const listed = await json(await fetch(`${sb.root}/_faults`));
    expect(listed.faults).toHaveLength(1);
    expect(listed.operations?.linkedin).toEqual([
      'authorize',
      'comments',
      'delete',
      'pages',
      'profile',
      'publish',
      'refresh',
      'reply',
      'revoke',
      'status',
      'token',
      'upload',
    ]);
    expect(listed.operations?.bluesky).toEqual([
      'comments',
      'delete',
      'profile',
      'publish',
      'refresh',
      'reply',
      'resolve',
      'revoke',
      'status',
      'token',
      'upload',
    ]);

    expect((await fetch(linkedinAuthorize())).status).toBe(500);
    expect(await json(await fetch(`${sb.root}/_faults`, { method: 'DELETE' }))).toEqual({ cleared: 1 });
    expect((await fetch(linkedinAuthorize())).status).toBe(200);
  });

  it('holds a call under the timeout fault until the client gives up, then serves normally', async () => {
    const token = await linkedinToken();
    await sb.fault({ platform: 'linkedin', operation: 'profile', fault: 'timeout' });
    const aborted = await fetch(sb.url('linkedin', '/v2/userinfo'), {
      ...bearer(token),
      signal: AbortSignal.timeout(1000),
    }).then(
      () => 'answered',
      (err: Error) => err.name,
    );
    expect(aborted).toBe('TimeoutError');
    expect((await fetch(sb.url('linkedin', '/v2/userinfo'), bearer(token))).status).toBe(200);
  });

  it('answers a held call with 504 once a short hold elapses', async () => {
    const token = await linkedinToken();
    await sb.fault({ platform: 'linkedin', operation: 'profile', fault: 'timeout', holdMs: 200 });
    const res = await fetch(sb.url('linkedin', '/v2/userinfo'), bearer(token));
    expect(res.status).toBe(504);
  });

  it('adds configured latency to simulator responses', async () => {
    const config = await fetch(`${sb.root}/_config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latencyMs: 300 }),
    });
    expect(await json(config)).toMatchObject({ latencyMs: 300 });
    expect(
      (
        await fetch(`${sb.root}/_config`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"latencyMs":-1}',
        })
      ).status,
    ).toBe(400);
  });

  it('shortens token lifetimes through _config', async () => {
    await fetch(`${sb.root}/_config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ lifetimes: { linkedin: { access: 60 } } }),
    });
    const token = await linkedinToken();
    sb.advance(61);
    expect((await fetch(sb.url('linkedin', '/v2/userinfo'), bearer(token))).status).toBe(401);
  });
});

describe('sandbox shutdown', () => {
  it('releases held requests when the server closes', async () => {
    const own = await startSandbox();
    await own.fault({ platform: 'bluesky', operation: 'resolve', fault: 'timeout' });
    const pending = fetch(`${own.url('bluesky', '/xrpc/com.atproto.identity.resolveHandle')}?handle=a.sandbox`).then(
      (r) => r.status,
      () => 'closed',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    // close() resolves only once the held request is let go (a hold that outlived it would keep the test waiting).
    await own.close();
    expect([504, 'closed']).toContain(await pending);
  });

  // Latency is shown by order, not by a clock: a request made under a minute of latency is still unanswered after a
  // later one, made once _config set the latency to 0, has its answer.
  it('holds responses for the latencyMs option until _config lowers it or the server closes', async () => {
    const slow = await startSandbox({ latencyMs: 60_000 });
    let held = 'pending';
    const first = fetch(slow.url('tiktok', '/v2/user/info/?fields=open_id')).then(
      (r) => (held = `answered ${r.status}`),
      () => (held = 'closed'),
    );
    const lowered = await fetch(`${slow.root}/_config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latencyMs: 0 }),
    });
    expect(await json(lowered)).toMatchObject({ latencyMs: 0 });
    expect((await fetch(slow.url('tiktok', '/v2/user/info/?fields=open_id'))).status).toBe(401);
    expect(held).toBe('pending');
    await slow.close();
    await first;
    expect(held).not.toBe('pending');
  });
});

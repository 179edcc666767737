import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sandboxBaseUrls } from '../../src/sandbox/index.ts';
import { bearer, json } from './helpers.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';

const APP_PASSWORD = 'abcd-ef12-gh34-ij56';
let sb: TestSandbox;

const xrpc = (nsid: string) => sb.url('bluesky', `/xrpc/${nsid}`);

function createSession(identifier: string, password = APP_PASSWORD): Promise<Response> {
  return fetch(xrpc('com.atproto.server.createSession'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier, password }),
  });
}

const post = (nsid: string, token: string) => fetch(xrpc(nsid), { method: 'POST', ...bearer(token) });

async function login(handle = 'alice.sandbox') {
  const body = await json(await createSession(handle));
  return { access: String(body.accessJwt), refresh: String(body.refreshJwt), did: String(body.did) };
}

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

describe('bluesky', () => {
  it('resolves any .sandbox handle to a stable did:plc, and its DID document points at the simulator', async () => {
    const res = await fetch(`${xrpc('com.atproto.identity.resolveHandle')}?handle=alice.sandbox`);
    const { did } = await json(res);
    expect(String(did)).toMatch(/^did:plc:[a-z2-7]{24}$/);
    const again = await json(await fetch(`${xrpc('com.atproto.identity.resolveHandle')}?handle=Alice.Sandbox`));
    expect(again.did).toBe(did);
    const missing = await fetch(`${xrpc('com.atproto.identity.resolveHandle')}?handle=alice.bsky.social`);
    expect(missing.status).toBe(400);
    expect(await json(missing)).toEqual({ error: 'InvalidRequest', message: 'Unable to resolve handle' });

    const urls = sandboxBaseUrls(sb.publicUrl).bluesky;
    const doc = await json(await fetch(`${urls.plc}/${String(did)}`));
    expect(doc.alsoKnownAs).toEqual(['at://alice.sandbox']);
    expect(doc.service).toEqual([
      { id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: urls.service },
    ]);
    expect((await fetch(`${urls.plc}/did:plc:aaaaaaaaaaaaaaaaaaaaaaaa`)).status).toBe(404);
  });

  it('creates a session with an app password; other password formats fail with 401', async () => {
    const res = await createSession('alice.sandbox');
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ handle: 'alice.sandbox', active: true, emailConfirmed: true });
    const [header, payload] = String(body.accessJwt)
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>);
    expect(header).toMatchObject({ alg: 'HS256', typ: 'at+jwt' });
    expect(Number(payload?.exp) - Number(payload?.iat)).toBe(7200);

    for (const password of ['hunter2', 'ABCD-EFGH-IJKL-MNOP', 'abcd-efgh-ijkl']) {
      const bad = await createSession('alice.sandbox', password);
      expect(bad.status).toBe(401);
      expect(await json(bad)).toEqual({ error: 'AuthenticationRequired', message: 'Invalid identifier or password' });
    }
    expect((await createSession('alice.example.com')).status).toBe(401);
    expect((await createSession(String(body.did))).status).toBe(200);
  });

  it('reads getSession and getProfile; an expired access JWT is a 400 ExpiredToken', async () => {
    const { access, did } = await login();
    expect(await json(await fetch(xrpc('com.atproto.server.getSession'), bearer(access)))).toMatchObject({
      did,
      handle: 'alice.sandbox',
    });
    const profile = await json(await fetch(`${xrpc('app.bsky.actor.getProfile')}?actor=alice.sandbox`, bearer(access)));
    expect(profile).toMatchObject({ did, handle: 'alice.sandbox', displayName: 'Alice Sandbox' });
    expect((await fetch(xrpc('com.atproto.server.getSession'))).status).toBe(401);

    sb.advance(7200);
    const expired = await fetch(xrpc('com.atproto.server.getSession'), bearer(access));
    expect(expired.status).toBe(400);
    expect(await json(expired)).toEqual({ error: 'ExpiredToken', message: 'Token has expired' });
  });

  it('rotates on refreshSession with a 2-hour grace for the old refresh JWT', async () => {
    const first = await login();
    const res = await post('com.atproto.server.refreshSession', first.refresh);
    expect(res.status).toBe(200);
    const second = await json(res);
    expect(second.refreshJwt).not.toBe(first.refresh);
    expect((await fetch(xrpc('com.atproto.server.getSession'), bearer(String(second.accessJwt)))).status).toBe(200);

    const replay = await json(await post('com.atproto.server.refreshSession', first.refresh));
    expect(replay.refreshJwt).toBe(second.refreshJwt);
    sb.advance(2 * 3600 + 1);
    const late = await post('com.atproto.server.refreshSession', first.refresh);
    expect(late.status).toBe(400);
    expect(await json(late)).toEqual({ error: 'ExpiredToken', message: 'Token has been revoked' });
    const wrongType = await post('com.atproto.server.refreshSession', String(second.accessJwt));
    expect(await json(wrongType)).toMatchObject({ error: 'InvalidToken' });
  });

  it('deletes a session so its refresh JWT stops working', async () => {
    const { refresh } = await login();
    expect((await post('com.atproto.server.deleteSession', refresh)).status).toBe(200);
    expect((await post('com.atproto.server.refreshSession', refresh)).status).toBe(400);
  });

  it('answers faults in XRPC shapes', async () => {
    const { access } = await login();
    await sb.fault({ platform: 'bluesky', operation: 'token', fault: 'rate_limit' });
    const limited = await createSession('alice.sandbox');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(await json(limited)).toMatchObject({ error: 'RateLimitExceeded' });
    await sb.fault({ platform: 'bluesky', operation: 'profile', fault: 'expire_token' });
    expect(await json(await fetch(xrpc('com.atproto.server.getSession'), bearer(access)))).toMatchObject({
      error: 'ExpiredToken',
    });
  });
});

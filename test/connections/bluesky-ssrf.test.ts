// Connecting Bluesky must not turn Herald into a proxy into its own network. The operator-configured entryway and PLC
// directory (a fake one here, on loopback) are trusted; the PDS a DID document names, a did:web host and wherever a
// redirect points are not, and nothing — least of all the app password — may reach an internal service through them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { lookupFrom } from '../helpers/lookup.ts';
import { startInternalService, startJsonServer, type InternalService } from '../helpers/internal-service.ts';
import { APP_PASSWORD } from './helpers.ts';

const B32 = 'abcdefghijklmnopqrstuvwxyz234567';
const plcDid = (n: number): string =>
  `did:plc:${n
    .toString(32)
    .split('')
    .map((c) => B32[parseInt(c, 32)])
    .join('')
    .padStart(24, 'a')}`;

// Names exist only through this resolver (handed to the networks' client); nothing here touches real DNS.
const NAMES: Record<string, string[]> = {
  'pds.evil.test': ['127.0.0.1'],
  'pds.mixed.test': ['93.184.215.14', '127.0.0.1'],
  'id.evil.test': ['127.0.0.1'],
  'id.mixed.test': ['93.184.215.14', '::ffff:127.0.0.1'],
};
const lookup = lookupFrom(NAMES);

let internal: InternalService;
let directory: Awaited<ReturnType<typeof startJsonServer>>;
let h: Harness;
let user: TestUser;
/** handle → DID, and did:plc → the PDS its document names. */
const handles = new Map<string, string>();
const pdsOf = new Map<string, string>();

const NOISY = `<h1>Upstream error</h1>\r\n<p>internal service says: db-7.corp.internal (10.20.30.40:5432) refused\n<script>alert(1)</script>${'x'.repeat(4000)}</p>`;

function directoryAnswers(req: IncomingMessage, _body: string, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://directory');
  const json = (status: number, body: unknown): void =>
    void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (url.pathname === '/xrpc/com.atproto.identity.resolveHandle') {
    const did = handles.get(url.searchParams.get('handle') ?? '');
    return did ? json(200, { did }) : json(400, { error: 'InvalidRequest', message: 'Unable to resolve handle' });
  }
  if (url.pathname.startsWith('/did:plc:')) {
    const did = url.pathname.slice(1);
    const pds = pdsOf.get(did);
    if (!pds) return json(404, { message: 'DID not registered' });
    return json(200, {
      id: did,
      alsoKnownAs: [],
      service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: pds }],
    });
  }
  // A PDS on the configured host that hands the login on to wherever the test says (307 keeps the POST and its body).
  const redirect = url.pathname.match(/^\/redirect\/(.+)\/xrpc\/com\.atproto\.server\.createSession$/);
  if (redirect)
    return void res
      .writeHead(307, { location: `${decodeURIComponent(redirect[1]!)}/xrpc/com.atproto.server.createSession` })
      .end();
  if (url.pathname === '/noisy/xrpc/com.atproto.server.createSession')
    return json(400, { error: 'InvalidRequest', message: NOISY });
  if (url.pathname === '/xrpc/com.atproto.server.createSession')
    return json(401, { error: 'AuthenticationRequired', message: 'Invalid identifier or password' });
  json(404, { error: 'NotFound' });
}

let n = 0;
/** A handle whose DID document names `pds` (or, for a did:web, whose DID is that). */
function account(target: { pds: string } | { didWeb: string }): string {
  const handle = `user${++n}.example.com`;
  if ('didWeb' in target) {
    handles.set(handle, `did:web:${target.didWeb}`);
  } else {
    const did = plcDid(1000 + n);
    handles.set(handle, did);
    pdsOf.set(did, target.pds);
  }
  return handle;
}

async function connect(handle: string) {
  const res = await h.req({
    method: 'POST',
    url: '/unified/oauth/url',
    headers: asUser(user),
    payload: { platform: ['bluesky'], handle, app_password: APP_PASSWORD },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results.bluesky as { success: boolean; message: string; auth_url: null };
}

beforeAll(async () => {
  internal = await startInternalService();
  directory = await startJsonServer(directoryAnswers);
  h = await createHarness({
    env: { HERALD_BLUESKY_SERVICE_URL: directory.url, HERALD_BLUESKY_PLC_URL: directory.url },
    overrides: { platformLookup: lookup },
  });
  user = await h.signup();
});
afterAll(async () => {
  await h?.close();
  await directory?.close();
  await internal?.close();
});

describe('Bluesky connect: destinations a user controls go through the address policy', () => {
  const P = () => internal.port;
  const refused: [string, () => { pds: string } | { didWeb: string }][] = [
    ['a PDS on a loopback literal (https)', () => ({ pds: `https://127.0.0.1:${P()}` })],
    ['a PDS on a loopback literal (plain http)', () => ({ pds: `http://127.0.0.1:${P()}` })],
    ['a PDS on an IPv4-mapped IPv6 loopback', () => ({ pds: `https://[::ffff:127.0.0.1]:${P()}` })],
    ['a PDS on IPv6 loopback', () => ({ pds: `https://[::1]:${P()}` })],
    ['a PDS on 0.0.0.0', () => ({ pds: `https://0.0.0.0:${P()}` })],
    ['a PDS on a decimal IPv4 literal', () => ({ pds: `https://2130706433:${P()}` })],
    ['a PDS on an octal IPv4 literal', () => ({ pds: `https://0177.0.0.1:${P()}` })],
    ['a PDS whose name resolves to loopback', () => ({ pds: `https://pds.evil.test:${P()}` })],
    ['a PDS whose name resolves to a public and a private address', () => ({ pds: `https://pds.mixed.test:${P()}` })],
    [
      'a configured host redirecting the login to loopback',
      () => ({ pds: `${directory.url}/redirect/${encodeURIComponent(`http://127.0.0.1:${P()}`)}` }),
    ],
    [
      'a configured host redirecting the login to a name on loopback',
      () => ({ pds: `${directory.url}/redirect/${encodeURIComponent(`https://pds.evil.test:${P()}`)}` }),
    ],
    ['a did:web host that resolves to loopback', () => ({ didWeb: 'id.evil.test' })],
    ['a did:web host that resolves to a public and a mapped loopback address', () => ({ didWeb: 'id.mixed.test' })],
  ];

  it.each(refused)('refuses %s without contacting it', async (_what, target) => {
    const result = await connect(account(target()));
    expect(result).toMatchObject({ success: false, auth_url: null });
    expect(result.message).toMatch(/^Connecting Bluesky failed: The bluesky server address is not allowed/);
    // Nothing about the server's network comes back: no address, no range name, no resolution detail.
    expect(result.message).not.toMatch(/127\.0\.0\.1|::1|loopback|private|resolves|evil|mixed|internal service/);
    expect(internal.connections).toBe(0);
    expect(internal.requests).toEqual([]);
  });

  it('still reaches the PDS when it is the configured host, and stores nothing for a failed login', async () => {
    const before = directory.requests.length;
    const result = await connect(account({ pds: directory.url }));
    expect(result).toEqual({
      success: false,
      message: 'Connecting Bluesky failed: Invalid handle or app password',
      auth_url: null,
    });
    const logins = directory.requests.slice(before).filter((r) => r.url === '/xrpc/com.atproto.server.createSession');
    expect(logins).toHaveLength(1);
    expect(await h.ctx.connectionStore.list(user.workspaceId, 'bluesky')).toHaveLength(0);
    expect(internal.connections).toBe(0);
  });

  it("shows an upstream's error text only as a short, clean reason", async () => {
    const result = await connect(account({ pds: `${directory.url}/noisy` }));
    expect(result.success).toBe(false);
    expect(result.message.length).toBeLessThanOrEqual(300);
    expect(result.message).toMatch(/^Connecting Bluesky failed: /);
    expect(result.message).not.toMatch(/[<>\r\n]|script|db-7|corp\.internal|10\.20\.30\.40|xxxxxxxxxx/);
  });
});

// The networks' HTTP client under the outbound address policy, against real servers on loopback: configured origins
// are reached, anything else (a redirect target above all) must be a public https address, checked at connect time.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundPolicy, refusalIn, type HostLookup } from '../../src/net/outbound-policy.ts';
import { PlatformHttp } from '../../src/platforms/http.ts';
import { PlatformError } from '../../src/platforms/types.ts';
import { lookupFrom } from '../helpers/lookup.ts';
import { startInternalService, startJsonServer, type InternalService } from '../helpers/internal-service.ts';

const logger = pino({ level: 'silent' });
const NAMES: Record<string, string[]> = {
  'evil.test': ['127.0.0.1'],
  'mixed.test': ['93.184.215.14', '10.0.0.7'],
  'v6.test': ['fd00::7'],
  'api.test': ['127.0.0.1'],
};
const lookup = lookupFrom(NAMES);

let internal: InternalService;
let api: Awaited<ReturnType<typeof startJsonServer>>;
let http: PlatformHttp;

async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  const err = await promise.then(
    () => new Error('expected a refusal'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PlatformError);
  return err as PlatformError;
}

beforeAll(async () => {
  internal = await startInternalService();
  api = await startJsonServer((req, _body, res) => {
    const url = new URL(req.url ?? '/', 'http://api');
    const to = url.searchParams.get('to');
    if (url.pathname === '/hop' && to)
      return void res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: to }).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, path: url.pathname }));
  });
  http = new PlatformHttp({ logger, policy: new OutboundPolicy({ trustedOrigins: [api.url], lookup }) });
});
afterAll(async () => {
  await http?.close();
  await api?.close();
  await internal?.close();
});

describe('platform HTTP client: redirects', () => {
  const hop = (to: string, status = 302) => `${api.url}/hop?status=${status}&to=${encodeURIComponent(to)}`;

  it('follows a redirect within the configured origin', async () => {
    const res = await http.request('linkedin', { url: hop(`${api.url}/landed`) });
    expect(res.data).toEqual({ ok: true, path: '/landed' });
  });

  it.each([
    ['a loopback literal', () => `http://127.0.0.1:${internal.port}/steal`, 302],
    ['a loopback literal over https, keeping the POST body', () => `https://127.0.0.1:${internal.port}/steal`, 307],
    ['a name resolving to loopback', () => `https://evil.test:${internal.port}/steal`, 308],
    ['IPv6 loopback', () => `https://[::1]:${internal.port}/steal`, 302],
    ['an IPv4-mapped loopback', () => `https://[::ffff:127.0.0.1]:${internal.port}/steal`, 302],
  ])('refuses to follow a redirect to %s from a configured host', async (_what, to, status) => {
    const err = await failure(
      http.request('bluesky', { method: 'POST', url: hop(to(), status), json: { password: 'hunter2' } }),
    );
    expect(err.kind).toBe('invalid_content');
    expect(err.message).toBe(
      'The bluesky server address is not allowed: Herald connects only to public https addresses',
    );
    expect(refusalIn(err.cause)?.reason).toMatch(/^(address|scheme)$/);
    expect(internal.connections).toBe(0);
    expect(internal.requests).toEqual([]);
  });
});

describe('platform HTTP client: destinations outside the configuration', () => {
  it.each([
    ['https://127.0.0.1:{port}/', 'address'],
    ['http://127.0.0.1:{port}/', 'scheme'],
    ['https://0.0.0.0:{port}/', 'address'],
    ['https://2130706433:{port}/', 'address'],
    ['https://0x7f.1:{port}/', 'address'],
    ['https://[::ffff:7f00:1]:{port}/', 'address'],
    ['https://[fc00::1]:{port}/', 'address'],
    ['https://[fe80::1]:{port}/', 'address'],
    ['https://169.254.169.254/latest/meta-data/', 'address'],
    ['https://evil.test:{port}/', 'address'],
    ['https://mixed.test/', 'address'],
    ['https://v6.test/', 'address'],
  ])('%s is refused (%s) before any connection', async (template, reason) => {
    const err = await failure(http.request('facebook', { url: template.replace('{port}', String(internal.port)) }));
    expect(refusalIn(err.cause)?.reason).toBe(reason);
    expect(err.kind).toBe('invalid_content');
    // Neither the address a name resolved to nor the kind of range it is in is told.
    expect(err.message).not.toMatch(/127\.|10\.0|fd00|loopback|private|resolves/);
    expect(internal.connections).toBe(0);
  });

  it('reads a name that does not resolve as a passing failure', async () => {
    const err = await failure(http.request('facebook', { url: 'https://nowhere.test/' }));
    expect(err.kind).toBe('transient');
    expect(refusalIn(err.cause)?.reason).toBe('dns');
  });

  it('connects to the address it checked: one lookup per connection, never a second answer', async () => {
    let calls = 0;
    const rebinding: HostLookup = async () => {
      calls++;
      // Nothing listens on 127.0.0.2's port, so the request fails if the socket resolved the name again.
      return [{ address: calls === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
    };
    const pinned = new PlatformHttp({
      logger,
      policy: new OutboundPolicy({ trustedHosts: ['api.test'], lookup: rebinding }),
    });
    try {
      const port = new URL(api.url).port;
      expect((await pinned.request('linkedin', { url: `http://api.test:${port}/a` })).data).toEqual({
        ok: true,
        path: '/a',
      });
      expect(calls).toBe(1);
    } finally {
      await pinned.close();
    }
  });

  it('trusts nothing without a policy: even a loopback server is refused', async () => {
    const strict = new PlatformHttp({ logger });
    try {
      const before = api.requests.length;
      const err = await failure(strict.request('linkedin', { url: `${api.url}/a` }));
      expect(err.kind).toBe('invalid_content');
      expect(api.requests.length).toBe(before);
    } finally {
      await strict.close();
    }
  });
});

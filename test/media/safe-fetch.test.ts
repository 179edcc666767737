import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockedRangeOf } from '../../src/net/ip-policy.ts';
import { safeFetch, UrlRefusedError, type HostLookup, type SafeFetchOptions } from '../../src/media/safe-fetch.ts';
import { lookupFrom } from '../helpers/lookup.ts';
import { makeCert, startServer, type RunningServer, type TestCert } from './helpers/test-server.ts';

// Names that exist only through the injected resolver; nothing here touches real DNS or a non-loopback host.
const hosts: Record<string, string[]> = {
  'media.test': ['127.0.0.1'],
  'internal.test': ['127.0.0.1'],
  'cdn.example.com': ['10.20.30.40'],
  'mixed.example.com': ['93.184.215.14', '192.168.1.20'],
  'meta.example.com': ['169.254.169.254'],
  'v6.example.com': ['fd00:ec2::254'],
};
const lookup = lookupFrom(hosts);

let cert: TestCert;
let tls: RunningServer;
let plain: RunningServer;

function base(extra: Partial<SafeFetchOptions> = {}): SafeFetchOptions {
  return {
    maxBytes: 1000,
    timeoutMs: 2000,
    maxRedirects: 3,
    lookup,
    ca: cert.cert,
    allowHosts: ['media.test'],
    ...extra,
  };
}

async function refusal(promise: Promise<unknown>): Promise<UrlRefusedError> {
  const err = await promise.then(
    () => new Error('expected a refusal'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UrlRefusedError);
  return err as UrlRefusedError;
}

beforeAll(async () => {
  cert = makeCert(['media.test', 'internal.test']);
  tls = await startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'https://media.test');
    switch (url.pathname) {
      case '/ok':
        res.writeHead(200, { 'content-type': 'image/png' }).end('hello');
        return;
      case '/to-internal':
        res.writeHead(302, { location: `https://internal.test:${tls.port}/ok` }).end();
        return;
      case '/to-http':
        res.writeHead(301, { location: `http://example.org/` }).end();
        return;
      case '/loop':
        res.writeHead(307, { location: `/loop?n=${Number(url.searchParams.get('n') ?? 0) + 1}` }).end();
        return;
      case '/hop':
        res.writeHead(302, { location: '/ok' }).end();
        return;
      case '/big-header':
        res.writeHead(200, { 'content-length': '5000' });
        res.write('x'.repeat(100));
        return;
      case '/big-stream':
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        for (let i = 0; i < 10; i++) res.write('y'.repeat(500));
        res.end();
        return;
      case '/slow-headers':
        setTimeout(() => res.writeHead(200).end('late'), 3000).unref();
        return;
      case '/slow-body':
        res.writeHead(200);
        res.write('start');
        return;
      case '/missing':
        res.writeHead(404).end('nope');
        return;
      default:
        res.writeHead(500).end();
    }
  }, cert);
  plain = await startServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('plain'));
});

afterAll(async () => {
  await tls?.close();
  await plain?.close();
});

describe('address classification', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.31.255.1', 'private'],
    ['192.168.0.1', 'private'],
    ['100.64.0.1', 'shared-address-space'],
    ['169.254.169.254', 'cloud-metadata'],
    ['169.254.10.1', 'link-local'],
    ['0.0.0.0', 'this-network'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['fd00:ec2::254', 'cloud-metadata'],
    ['::ffff:127.0.0.1', 'ipv4-mapped loopback'],
    ['::ffff:a00:1', 'ipv4-mapped private'],
    ['64:ff9b::a9fe:a9fe', 'nat64 cloud-metadata'],
    ['64:ff9b::10.0.0.1', 'nat64 private'],
    ['::127.0.0.1', 'ipv4-compatible'],
    ['2002:7f00:1::', '6to4'],
    ['2001:db8::1', 'documentation'],
    ['fe80::1%eth0', 'not-an-ip-address'],
    ['example.com', 'not-an-ip-address'],
  ])('%s is %s', (address, label) => {
    expect(blockedRangeOf(address)).toBe(label);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    '%s is public',
    (address) => {
      expect(blockedRangeOf(address)).toBeNull();
    },
  );
});

describe('safeFetch refusals before connecting', () => {
  it.each([
    ['http://media.example.com/a.png', 'scheme'],
    ['ftp://media.example.com/a.png', 'scheme'],
    ['https://user:pw@cdn.example.com/a.png', 'credentials'],
    ['not a url', 'invalid_url'],
    ['https://127.0.0.1/a.png', 'address'],
    ['https://10.0.0.1/a.png', 'address'],
    ['https://169.254.169.254/latest/meta-data/', 'address'],
    ['https://[::1]/a.png', 'address'],
    ['https://[::ffff:127.0.0.1]/a.png', 'address'],
    ['https://[fd00:ec2::254]/', 'address'],
    ['https://cdn.example.com/a.png', 'address'],
    ['https://mixed.example.com/a.png', 'address'],
    ['https://meta.example.com/a.png', 'address'],
    ['https://v6.example.com/a.png', 'address'],
    ['https://nowhere.example.com/a.png', 'dns'],
  ])('%s → %s', async (url, reason) => {
    const err = await refusal(safeFetch(url, base()));
    expect(err.reason).toBe(reason);
  });

  it('refuses a loopback address even on the port of a live server', async () => {
    const before = tls.requests.length;
    const err = await refusal(safeFetch(`https://127.0.0.1:${tls.port}/ok`, base({ allowHosts: [] })));
    expect(err.reason).toBe('address');
    expect(tls.requests.length).toBe(before);
  });
});

describe('safeFetch against local servers', () => {
  it('fetches from an allowed host, connecting to the pinned address with the hostname as SNI', async () => {
    const res = await safeFetch(`https://media.test:${tls.port}/ok`, base());
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('image/png');
    expect(await text(res.body)).toBe('hello');
  });

  it('resolves once per hop and never lets the socket re-resolve', async () => {
    let calls = 0;
    const rebinding: HostLookup = async () => {
      calls++;
      // Nothing listens on 127.0.0.2, so the fetch fails if anything resolves the name a second time.
      return [{ address: calls === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
    };
    const res = await safeFetch(`https://media.test:${tls.port}/ok`, base({ lookup: rebinding }));
    expect(await text(res.body)).toBe('hello');
    expect(calls).toBe(1);
  });

  it('follows a redirect within bounds and reports the final URL', async () => {
    const res = await safeFetch(`https://media.test:${tls.port}/hop`, base());
    expect(res.url).toBe(`https://media.test:${tls.port}/ok`);
    expect(await text(res.body)).toBe('hello');
  });

  it('refuses a redirect to a host that resolves to a private address', async () => {
    const before = tls.requests.length;
    const err = await refusal(safeFetch(`https://media.test:${tls.port}/to-internal`, base()));
    expect(err.reason).toBe('address');
    expect(err.url).toBe(`https://internal.test:${tls.port}/ok`);
    // What the name resolved to, and what kind of range that is, stay on the server.
    expect(err.message).not.toMatch(/127\.0\.0\.1|loopback|resolves/);
    expect(tls.requests.slice(before)).toEqual(['/to-internal']);
  });

  it('refuses a redirect to plain http', async () => {
    const err = await refusal(safeFetch(`https://media.test:${tls.port}/to-http`, base()));
    expect(err.reason).toBe('scheme');
  });

  it('stops after maxRedirects', async () => {
    const err = await refusal(safeFetch(`https://media.test:${tls.port}/loop`, base({ maxRedirects: 2 })));
    expect(err.reason).toBe('redirects');
  });

  it('refuses an oversize body announced by Content-Length before reading it', async () => {
    const err = await refusal(safeFetch(`https://media.test:${tls.port}/big-header`, base()));
    expect(err.reason).toBe('too_large');
  });

  it('cuts off an oversize streamed body', async () => {
    const res = await safeFetch(`https://media.test:${tls.port}/big-stream`, base());
    expect(res.contentLength).toBeUndefined();
    const err = await refusal(text(res.body));
    expect(err.reason).toBe('too_large');
  });

  it('times out waiting for headers', async () => {
    const err = await refusal(safeFetch(`https://media.test:${tls.port}/slow-headers`, base({ timeoutMs: 300 })));
    expect(err.reason).toBe('timeout');
  });

  it('times out while the body is still streaming', async () => {
    const res = await safeFetch(`https://media.test:${tls.port}/slow-body`, base({ timeoutMs: 300 }));
    const err = await refusal(text(res.body));
    expect(err.reason).toBe('timeout');
  });

  it('refuses a non-2xx status', async () => {
    const err = await refusal(safeFetch(`https://media.test:${tls.port}/missing`, base()));
    expect(err.reason).toBe('status');
    expect(err.status).toBe(404);
  });

  it('applies the content type check', async () => {
    const accept = (type: string | undefined): boolean => type?.startsWith('video/') ?? false;
    const err = await refusal(safeFetch(`https://media.test:${tls.port}/ok`, base({ acceptContentType: accept })));
    expect(err.reason).toBe('content_type');
  });

  it('rejects a certificate it does not trust', async () => {
    const err = await refusal(safeFetch(`https://media.test:${tls.port}/ok`, base({ ca: undefined })));
    expect(err.reason).toBe('network');
  });

  it('allows plain http only for allowed hosts', async () => {
    const res = await safeFetch(`http://media.test:${plain.port}/`, base());
    expect(await text(res.body)).toBe('plain');
    const err = await refusal(safeFetch(`http://internal.test:${plain.port}/`, base({ allowHttp: true })));
    expect(err.reason).toBe('address');
  });

  it('honours a caller abort', async () => {
    const controller = new AbortController();
    const pending = safeFetch(`https://media.test:${tls.port}/slow-headers`, base({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    const err = await refusal(pending);
    expect(err.reason).toBe('aborted');
  });
});

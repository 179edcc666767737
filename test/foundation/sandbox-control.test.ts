// The sandbox's control routes (every simulated token at /sandbox/_state; _seed, _faults, _config) answer clients on
// the server's own machine only, judged by the connection's address: a forwarded address never counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.ts';

const CONTROL = [
  { method: 'GET', url: '/sandbox/_state' },
  { method: 'GET', url: '/sandbox/_faults' },
  { method: 'GET', url: '/sandbox/_config' },
  { method: 'POST', url: '/sandbox/_seed', payload: {} },
] as const;

describe('sandbox control routes', () => {
  let h: Harness;
  let open: Harness;
  beforeAll(async () => {
    // The proxy is trusted, so a forwarded 127.0.0.1 would become req.ip: the guard must not believe it.
    h = await createHarness({ sandbox: true, env: { HERALD_TRUST_PROXY: 'true' } });
    open = await createHarness({ sandbox: true, env: { HERALD_SANDBOX_CONTROL: 'any' } });
  });
  afterAll(async () => {
    await h?.close();
    await open?.close();
  });

  it('refuse a remote client, even one a trusted proxy says is local', async () => {
    for (const route of CONTROL) {
      const remote = await h.req({ ...route, remoteAddress: '203.0.113.7' });
      expect(remote.statusCode, route.url).toBe(403);
      expect(remote.json()).toEqual({
        error: 'forbidden',
        message: expect.stringContaining('HERALD_SANDBOX_CONTROL=any'),
      });
      const spoofed = await h.req({
        ...route,
        remoteAddress: '203.0.113.7',
        headers: { 'x-forwarded-for': '127.0.0.1' },
      });
      expect(spoofed.statusCode, route.url).toBe(403);
    }
    // A proxy on the same machine forwards the world's requests from loopback: they are refused too.
    const proxied = await h.req({
      method: 'GET',
      url: '/sandbox/_state',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '198.51.100.4' },
    });
    expect(proxied.statusCode).toBe(403);
  });

  it('answer a client on this machine, over IPv4 or IPv6', async () => {
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const res = await h.req({ method: 'GET', url: '/sandbox/_state?platform=linkedin', remoteAddress });
      expect(res.statusCode, remoteAddress).toBe(200);
      expect(res.json()).toHaveProperty('linkedin');
    }
  });

  it('leave the simulated networks themselves open, and answer anyone with HERALD_SANDBOX_CONTROL=any', async () => {
    const network = await h.req({ method: 'GET', url: '/sandbox/linkedin/v2/userinfo', remoteAddress: '203.0.113.7' });
    expect(network.statusCode).not.toBe(403);
    const res = await open.req({
      method: 'GET',
      url: '/sandbox/_state?platform=linkedin',
      remoteAddress: '203.0.113.7',
    });
    expect(res.statusCode).toBe(200);
  });
});

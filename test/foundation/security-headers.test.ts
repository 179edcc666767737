// Every answer says not to sniff its type and not to be framed; the API reference says so in its CSP too.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { listenOnLoopback } from '../helpers/net.ts';

let h: Harness;
let u: TestUser;
let base: URL;
beforeAll(async () => {
  h = await createHarness();
  u = await h.signup();
  base = new URL(await listenOnLoopback(h.app));
});
afterAll(() => h.close());

describe('security headers', () => {
  it('nosniff and X-Frame-Options: DENY on a sample of answers, successes and refusals alike', async () => {
    const sample = [
      { method: 'GET', url: '/healthz' },
      { method: 'GET', url: '/openapi.json' },
      { method: 'GET', url: '/workspaces', headers: asUser(u) },
      { method: 'GET', url: '/workspaces' },
      { method: 'GET', url: '/no/such/route' },
      { method: 'POST', url: '/auth/login', payload: { email: 'x' } },
      { method: 'POST', url: '/auth/login', headers: { 'content-type': 'text/csv' }, payload: 'a,b' },
      { method: 'GET', url: '/workspaces/%E0%A4%A', headers: asUser(u) },
      {
        method: 'POST',
        url: '/media/upload',
        headers: { ...asUser(u), 'content-type': 'multipart/form-data; boundary=x' },
        payload: '--x--\r\n',
      },
      { method: 'GET', url: '/openapi/chatgpt-actions.json' },
    ] as const;
    for (const r of sample) {
      const res = await h.req(r as never);
      expect({
        url: r.url,
        status: res.statusCode,
        nosniff: res.headers['x-content-type-options'],
        frame: res.headers['x-frame-options'],
      }).toEqual({ url: r.url, status: res.statusCode, nosniff: 'nosniff', frame: 'DENY' });
    }
  });

  it("the API reference refuses to be framed: frame-ancestors 'none'", async () => {
    for (const url of ['/docs', '/docs/', '/docs/static/index.html']) {
      const res = await h.req({ method: 'GET', url });
      expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], url).toBe('DENY');
    }
    expect((await h.req({ method: 'GET', url: '/healthz' })).headers['content-security-policy']).toBeUndefined();
  });

  it("Node's own refusals, written to the socket, carry them too", async () => {
    const head = await new Promise<string>((resolve) => {
      const socket = connect(Number(base.port), base.hostname);
      let data = '';
      socket.on('data', (d) => (data += d.toString('latin1')));
      socket.on('error', () => {});
      socket.on('close', () => resolve(data.split('\r\n\r\n')[0] ?? ''));
      socket.write('NOT HTTP AT ALL\r\n\r\n');
    });
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head.toLowerCase()).toContain('x-content-type-options: nosniff');
  });
});

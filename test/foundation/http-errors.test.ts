// Fastify's and Node's own refusals answer in the interface's {detail} shape, without internals, and
// what a client sent is never echoed back at length.
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capEchoes } from '../../src/errors.ts';
import { invalidStrings } from '../../src/input-strings.ts';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';

let h: Harness;
let u: TestUser;
let port: number;
beforeAll(async () => {
  h = await createHarness();
  u = await h.signup();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  port = (h.app.server.address() as AddressInfo).port;
});
afterAll(() => h.close());

/** One raw HTTP/1.1 exchange: Node refuses some requests before Fastify sees them. */
function raw(request: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('error', () => {}); // the server resets after answering
    socket.on('close', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      if (!status) reject(new Error(`no HTTP answer: ${data.slice(0, 200)}`));
      else resolve({ status, headers: head, body });
    });
    socket.write(request);
  });
}

describe("Fastify's and Node's own errors", () => {
  it('415 for a body that is not JSON, saying what to send', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await h.req({
        method: 'POST',
        url: '/auth/login',
        headers: { 'content-type': type },
        payload: 'email=a&password=b',
      });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({
        detail: `Unsupported Content-Type '${type}': send the body as JSON with Content-Type: application/json.`,
      });
    }
    const upload = await h.req({
      method: 'POST',
      url: '/media/upload',
      headers: { ...asUser(u), 'content-type': 'text/csv' },
      payload: 'a,b',
    });
    expect(upload.statusCode).toBe(415);
    expect(upload.json().detail).toContain('multipart/form-data');
  });

  it('413 for a body over the limit, 422 for malformed JSON', async () => {
    const big = await h.req({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: `{"email":"${'a'.repeat(10 * 1024 * 1024)}"}`,
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ detail: 'Request body too large: the limit for this route is 10485760 bytes.' });
    const broken = await h.req({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(broken.statusCode).toBe(422);
    expect(broken.json()).toEqual({ detail: [{ loc: ['body'], msg: 'Body is not valid JSON', type: 'json_invalid' }] });
  });

  it('400 for a malformed URL and 414 for an over-long path segment, found while routing', async () => {
    const bad = await h.req({ method: 'GET', url: '/workspaces/%E0%A4%A', headers: asUser(u) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ detail: 'Malformed URL: invalid percent-encoding.' });
    const long = await h.req({ method: 'GET', url: `/unified/drafts/${'a'.repeat(500)}`, headers: asUser(u) });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ detail: 'URL too long: a path segment exceeds the length allowed.' });
  });

  it('431 for oversized headers and 414 for an oversized request line, before Fastify sees the request', async () => {
    const headers = await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(headers.status).toBe(431);
    expect(headers.headers).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(headers.body)).toEqual({ detail: 'Request headers too large.' });
    const url = await raw(`GET /healthz?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(url.status).toBe(414);
    expect(JSON.parse(url.body)).toEqual({ detail: 'URL too long.' });
    const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.body)).toEqual({ detail: 'Malformed HTTP request.' });
  });
});

describe('echoed input in error messages', () => {
  it('is cut to 100 characters, wherever the message comes from', async () => {
    const huge = 'p'.repeat(1024 * 1024);
    const cut = `'${'p'.repeat(100)}…'`;
    // Post bodies cap a platform at 200 characters: still twice what may come back.
    const post = await h.req({
      method: 'POST',
      url: '/unified/post/text',
      headers: asUser(u),
      payload: { platforms: ['p'.repeat(200)], default_text: 'hi' },
    });
    expect(post.statusCode).toBe(400);
    expect(post.json().detail).toBe(
      `Invalid or unsupported platform: ${cut}. Supported: linkedin, instagram, facebook, threads, tiktok, youtube, pinterest, bluesky`,
    );
    const connect = await h.req({
      method: 'POST',
      url: '/unified/oauth/url',
      headers: asUser(u),
      payload: { platform: huge },
    });
    expect(connect.json().detail).toContain(cut);
    expect(connect.body.length).toBeLessThan(1000);
  });

  it('never splits a character, and caps a whole message even when quotes do not pair up', () => {
    const odd = capEchoes(`value 'a${'🎉'.repeat(80)}' refused`);
    expect(odd).toBe(`value 'a${'🎉'.repeat(49)}…' refused`);
    expect(invalidStrings(odd, [])).toEqual([]);
    expect(capEchoes(`"${'d'.repeat(150)}"`)).toBe(`"${'d'.repeat(100)}…"`);
    expect(capEchoes(`it's ${'q'.repeat(5000)}`)).toHaveLength(1001);
  });
});

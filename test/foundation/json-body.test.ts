// JSON bodies: nested at most 64 levels (refused with a 422 when parsed, before any walk over them) and
// encoded as UTF-8 (another charset is a 415), over inject and over a real socket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nestedDeeperThan } from '../../src/transports/rest/json-body.ts';
import { withoutNulls } from '../../src/publishing/schemas.ts';
import { invalidStrings } from '../../src/input-strings.ts';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { listenOnLoopback } from '../helpers/net.ts';

let h: Harness;
let u: TestUser;
let base: string;
beforeAll(async () => {
  h = await createHarness();
  u = await h.signup();
  base = await listenOnLoopback(h.app);
});
afterAll(() => h.close());

/** A post body whose LinkedIn override nests `levels` objects in all (the body itself is the first). */
const deepPost = (levels: number) =>
  `{"platforms":["linkedin"],"default_text":"hi","post_type":"text","linkedin":${'{"a":'.repeat(levels - 2)}{}${'}'.repeat(levels - 2)}}`;

const TOO_DEEP = {
  detail: [
    {
      loc: ['body'],
      msg: 'JSON nesting deeper than 64 levels is not accepted: send a flatter body.',
      type: 'json_too_deep',
    },
  ],
};

const ROUTES: [string, string][] = [
  ['POST', '/unified/post/text'],
  ['POST', '/unified/post/image'],
  ['POST', '/unified/post/carousel'],
  ['POST', '/unified/post/video'],
  ['POST', '/unified/drafts'],
  ['POST', '/unified/scheduled-posts'],
  ['POST', '/unified/gpt-actions/publish'],
  ['POST', '/auth/login'],
  ['POST', '/mcp'],
];

describe('deeply nested JSON', () => {
  it('is a 422 naming the limit on every post route, over inject, at 100, 5,000 and 100,000 levels', async () => {
    for (const levels of [100, 5_000, 100_000]) {
      for (const [method, url] of ROUTES) {
        const res = await h.req({
          method: method as 'POST',
          url,
          headers: { ...asUser(u), 'content-type': 'application/json' },
          payload: deepPost(levels),
        });
        expect({ url, levels, status: res.statusCode }).toEqual({ url, levels, status: 422 });
        expect(res.json()).toEqual(TOO_DEEP);
      }
    }
  });

  it('is a 422 over a real socket too, and the server keeps answering', async () => {
    for (const levels of [100, 5_000, 100_000]) {
      for (const [method, url] of ROUTES.slice(0, 6)) {
        const res = await fetch(`${base}${url}`, {
          method,
          headers: { ...asUser(u), 'content-type': 'application/json' },
          body: deepPost(levels),
        });
        expect({ url, levels, status: res.status }).toEqual({ url, levels, status: 422 });
        expect(await res.json()).toEqual(TOO_DEEP);
      }
    }
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it('up to 64 levels reaches the route (its schema answers, not the depth check)', async () => {
    const email = `${'{"a":'.repeat(62)}{}${'}'.repeat(62)}`;
    const res = await h.req({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: `{"email":${email},"password":"x"}`,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0]).toMatchObject({ loc: ['body', 'email'] });
  });

  it('counts brackets outside strings only', () => {
    expect(nestedDeeperThan(`{"a":"${'['.repeat(200)}"}`, 64)).toBe(false);
    expect(nestedDeeperThan(`{"a":"\\"${'{'.repeat(200)}"}`, 64)).toBe(false);
    expect(nestedDeeperThan(`${'['.repeat(65)}${']'.repeat(65)}`, 64)).toBe(true);
    expect(nestedDeeperThan(`${'['.repeat(64)}${']'.repeat(64)}`, 64)).toBe(false);
  });

  it('the walkers over a parsed body do not recurse (a body built in code may be deeper than any parsed one)', () => {
    let deep: Record<string, unknown> = { end: null };
    for (let i = 0; i < 100_000; i++) deep = { a: deep, gone: null };
    const stripped = withoutNulls(deep);
    expect(JSON.stringify(Object.keys(stripped))).toBe('["a"]');
    expect(invalidStrings(deep, ['body'])).toEqual([]);
  });
});

describe('JSON charset', () => {
  it('a charset other than UTF-8 is a 415 in the detail shape', async () => {
    for (const charset of ['utf-16', 'UTF-16LE', 'latin1', 'iso-8859-1', '"windows-1252"']) {
      const res = await h.req({
        method: 'POST',
        url: '/auth/login',
        headers: { 'content-type': `application/json; charset=${charset}` },
        payload: '{"email":"a@b.test","password":"x"}',
      });
      expect({ charset, status: res.statusCode }).toEqual({ charset, status: 415 });
      expect(res.json()).toEqual({
        detail: `Unsupported charset '${charset.replaceAll('"', '')}' in Content-Type: send the JSON body encoded as UTF-8 (charset=utf-8, or no charset).`,
      });
    }
  });

  it('utf-8, utf8 (any case) or no charset is read as JSON', async () => {
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'application/json;charset=UTF8',
      'application/json; charset="UTF-8"',
    ]) {
      const res = await h.req({
        method: 'POST',
        url: '/auth/login',
        headers: { 'content-type': type },
        payload: '{"email":"nobody@example.test","password":"wrong password"}',
      });
      expect({ type, status: res.statusCode }).toEqual({ type, status: 401 });
    }
  });
});

// NUL characters and unpaired surrogates in any input are a 422 naming the field, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';

const NUL = 'a\u0000b';
const LONE = 'x\ud800y';
const ID = '00000000-0000-4000-8000-000000000000';

let h: Harness;
let u: TestUser;
beforeAll(async () => {
  h = await createHarness();
  u = await h.signup();
});
afterAll(() => h.close());

const expect422 = (res: { statusCode: number; json(): unknown }, loc: (string | number)[], type: string) => {
  expect(res.statusCode).toBe(422);
  expect((res.json() as { detail: unknown[] }).detail).toEqual([{ loc, msg: expect.any(String), type }]);
};

describe('unusable strings in request input', () => {
  it('sign-in and sign-up fields', async () => {
    expect422(
      await h.req({
        method: 'POST',
        url: '/auth/login',
        payload: { email: `me${NUL}@example.test`, password: 'whatever pw' },
      }),
      ['body', 'email'],
      'string_nul',
    );
    expect422(
      await h.req({ method: 'POST', url: '/auth/login', payload: { email: u.email, password: LONE } }),
      ['body', 'password'],
      'string_unicode',
    );
    expect422(
      await h.req({
        method: 'POST',
        url: '/auth/signup',
        payload: { email: 'new@example.test', password: 'long enough', full_name: LONE },
      }),
      ['body', 'full_name'],
      'string_unicode',
    );
    expect422(
      await h.req({ method: 'POST', url: '/workspaces', headers: asUser(u), payload: { name: NUL } }),
      ['body', 'name'],
      'string_nul',
    );
  });

  it('post text, drafts and scheduled posts, nested and in keys', async () => {
    expect422(
      await h.req({
        method: 'POST',
        url: '/unified/post/text',
        headers: asUser(u),
        payload: { platforms: ['bluesky'], default_text: `hello ${NUL}` },
      }),
      ['body', 'default_text'],
      'string_nul',
    );
    expect422(
      await h.req({
        method: 'POST',
        url: '/unified/drafts',
        headers: asUser(u),
        payload: {
          post_type: 'text',
          platforms: ['bluesky'],
          default_text: 'ok',
          platform_overrides: { bluesky: { text: LONE } },
        },
      }),
      ['body', 'platform_overrides', 'bluesky', 'text'],
      'string_unicode',
    );
    expect422(
      await h.req({
        method: 'PATCH',
        url: `/unified/scheduled-posts/${ID}`,
        headers: asUser(u),
        payload: { post_data: { default_text: 'fine', tags: ['ok', NUL] } },
      }),
      ['body', 'post_data', 'tags', 1],
      'string_nul',
    );
    const badKey = await h.req({
      method: 'PATCH',
      url: `/unified/scheduled-posts/${ID}`,
      headers: asUser(u),
      payload: { post_data: { [`k${NUL}`]: 1 } },
    });
    expect422(badKey, ['body', 'post_data'], 'string_nul');
  });

  it('query strings and path parameters', async () => {
    expect422(
      await h.req({ method: 'GET', url: '/unified/drafts?platform=%00', headers: asUser(u) }),
      ['query', 'platform'],
      'string_nul',
    );
    expect422(
      await h.req({ method: 'GET', url: '/media?platform=li%00', headers: asUser(u) }),
      ['query', 'platform'],
      'string_nul',
    );
    expect422(await h.req({ method: 'GET', url: '/media/a%00b', headers: asUser(u) }), ['path', 'id'], 'string_nul');
  });

  it('multipart form fields and file names', async () => {
    const form = (field: string, value: string, filename = 'a.png') => {
      const b = 'herald-boundary';
      const body = `--${b}\r\nContent-Disposition: form-data; name="media_type"\r\n\r\nimage\r\n--${b}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${value}\r\n--${b}\r\nContent-Disposition: form-data; name="media"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\nnot really a png\r\n--${b}--\r\n`;
      return {
        method: 'POST' as const,
        url: '/media/upload',
        headers: { ...asUser(u), 'content-type': `multipart/form-data; boundary=${b}` },
        payload: Buffer.from(body, 'utf8'),
      };
    };
    expect422(await h.req(form('platform_user_id', NUL)), ['body', 'platform_user_id'], 'string_nul');
    expect422(
      await h.req(form('platform_user_id', 'fine', `a${NUL}.png`)),
      ['body', 'media', 'filename'],
      'string_nul',
    );
  });

  it('well-formed text, astral characters included, still passes', async () => {
    const ok = await h.req({ method: 'POST', url: '/workspaces', headers: asUser(u), payload: { name: 'Café 🎉 ✓' } });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().name).toBe('Café 🎉 ✓');
  });
});

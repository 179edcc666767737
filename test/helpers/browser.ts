// A browser as the web app drives Herald: signed in by the session cookie, with the CSRF token of GET /auth/csrf.
import type { LightMyRequestResponse } from 'fastify';
import type { Harness, TestUser } from './harness.ts';

export const WEB_CLIENT = { 'x-herald-client': 'web' };

export interface BrowserSession {
  /** The session JWT the cookie holds (never in a body the app sees). */
  jwt: string;
  /** The token GET /auth/csrf gave. */
  csrf: string;
  /** The Cookie header of this browser: the session and the CSRF secret. */
  cookie: string;
  /** Headers of a request the app makes: the cookies, and the CSRF token unless `csrf` is false (or another token). */
  headers(opts?: { csrf?: boolean | string; workspaceId?: string }): Record<string, string>;
}

/** The value of a cookie the response sets (undefined when it sets none of that name). */
export function setCookie(res: LightMyRequestResponse, name: string) {
  return (res.cookies as { name: string; value: string; [attr: string]: unknown }[]).find((c) => c.name === name);
}

/** Signs `user` in the way the web app does (login with X-Herald-Client: web), then fetches a CSRF token. */
export async function browserLogin(h: Harness, user: Pick<TestUser, 'email' | 'password'>): Promise<BrowserSession> {
  const login = await h.req({
    method: 'POST',
    url: '/auth/login',
    headers: WEB_CLIENT,
    payload: { email: user.email, password: user.password },
  });
  if (login.statusCode !== 200) throw new Error(`web login failed: ${login.statusCode} ${login.body}`);
  const jwt = setCookie(login, 'herald_session')?.value;
  if (!jwt) throw new Error('web login set no session cookie');
  const csrfRes = await h.req({ method: 'GET', url: '/auth/csrf' });
  const secret = setCookie(csrfRes, 'herald_csrf')?.value;
  if (!secret) throw new Error('GET /auth/csrf set no secret cookie');
  const csrf = (csrfRes.json() as { csrf_token: string }).csrf_token;
  const cookie = `herald_session=${jwt}; herald_csrf=${secret}`;
  return {
    jwt,
    csrf,
    cookie,
    headers: (opts = {}) => ({
      cookie,
      ...(opts.csrf === false ? {} : { 'x-csrf-token': typeof opts.csrf === 'string' ? opts.csrf : csrf }),
      ...(opts.workspaceId ? { 'x-workspace-id': opts.workspaceId } : {}),
    }),
  };
}

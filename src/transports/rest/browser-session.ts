// Browser sessions: the web app signs in with `X-Herald-Client: web` and gets its session JWT as an httpOnly
// cookie instead of in the JSON body, so page scripts never hold it. The access plugin accepts the cookie exactly
// where `Authorization: Bearer <session JWT>` is accepted (never as an API key or an OAuth access token), and a
// cookie-authenticated write must prove it comes from the app's own pages with an `X-CSRF-Token` (a token made by
// GET /auth/csrf from a secret in a second httpOnly cookie: @fastify/csrf-protection's double submit).
// Cookies are Secure unless the request came over plain http to a loopback host, where browsers would refuse them.
import cookie, { type CookieSerializeOptions } from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isIP } from 'node:net';
import type { AppContext } from '../../app-context.ts';
import { publicUser, type UserRow } from '../../auth/accounts.ts';
import { AppError } from '../../errors.ts';

export const SESSION_COOKIE = 'herald_session';
export const CSRF_COOKIE = 'herald_csrf';
export const CSRF_HEADER = 'x-csrf-token';
/** The header by which a client asks for a cookie session instead of a token in the body. */
export const CLIENT_HEADER = 'x-herald-client';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const csrfRefused = () => new AppError('forbidden', 'CSRF token missing or invalid');

/** Whether the request asks for a browser session (`X-Herald-Client: web`). */
export function wantsBrowserSession(req: FastifyRequest): boolean {
  const v = req.headers[CLIENT_HEADER];
  return (Array.isArray(v) ? v[0] : v)?.trim().toLowerCase() === 'web';
}

function loopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/**
 * The attributes of Herald's cookies for this request: httpOnly, SameSite=Lax, the whole site; Secure but on loopback
 * http.
 */
export function cookieOptions(req: FastifyRequest): CookieSerializeOptions {
  const plainLoopback = req.protocol === 'http' && loopbackHost(req.hostname);
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: !plainLoopback };
}

/** Sets the session cookie; it lasts as long as the JWT it holds. */
export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, token: string, seconds: number): void {
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(req), maxAge: seconds });
}

/** Clears the session cookie and the CSRF secret (the JWT itself is revoked by the caller). */
export function clearBrowserSession(req: FastifyRequest, reply: FastifyReply): void {
  const opts = cookieOptions(req);
  if (req.cookies[SESSION_COOKIE] !== undefined) reply.clearCookie(SESSION_COOKIE, opts);
  if (req.cookies[CSRF_COOKIE] !== undefined) reply.clearCookie(CSRF_COOKIE, opts);
}

/** The session cookie's value, when the request carries one. */
export function sessionCookie(req: FastifyRequest): string | undefined {
  return req.cookies?.[SESSION_COOKIE]?.trim() || undefined;
}

/**
 * The answer of a route that opens a session (sign-up, login): the token in the body, or, when the web app asks
 * for it, in the session cookie with only the user in the body.
 */
export async function openSession(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, user: UserRow) {
  const token = await ctx.sessions.issue(user);
  if (!wantsBrowserSession(req)) return { access_token: token, token_type: 'bearer' as const, user: publicUser(user) };
  setSessionCookie(req, reply, token, ctx.config.jwtTtlSeconds);
  return { user: publicUser(user) };
}

export interface BrowserSessions {
  /** Refuses (403) a cookie-authenticated request that changes state without a valid X-CSRF-Token. */
  assertCsrf(req: FastifyRequest): Promise<void>;
}

/** Registers the cookie parser and the CSRF tokens (GET /auth/csrf makes them: reply.generateCsrf). */
export async function installBrowserSessions(app: FastifyInstance): Promise<BrowserSessions> {
  await app.register(cookie);
  await app.register(csrf, {
    cookieKey: CSRF_COOKIE,
    // Secure is decided per request (cookieOptions); these are the attributes every CSRF secret cookie has.
    cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true },
    getToken: (req) => {
      const v = req.headers[CSRF_HEADER];
      return Array.isArray(v) ? v[0] : v;
    },
    // A refusal is an ordinary 403 of the request log; the plugin's own log line would repeat it.
    logLevel: 'debug',
  });
  return {
    async assertCsrf(req) {
      if (SAFE_METHODS.has(req.method)) return;
      const valid = await new Promise<boolean>((resolve) => {
        // The plugin answers a refusal through reply.send; this stand-in turns both outcomes into a boolean.
        const reply = { send: () => resolve(false) } as unknown as FastifyReply;
        app.csrfProtection(req, reply, () => resolve(true));
      });
      if (!valid) throw csrfRefused();
    },
  };
}

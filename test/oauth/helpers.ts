// Drives Herald's OAuth authorization server the way a connector and a browser do: registration, the
// authorization request, the sign-in forms (with their cookies), the code exchange.
import { createHash, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Harness, TestUser } from '../helpers/harness.ts';

export const CHATGPT_CALLBACK = 'https://chatgpt.com/aip/g-0123456789abcdef/oauth/callback';

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A browser's cookie jar (every cookie sent everywhere: Herald's paths do not overlap in ways the tests rely on). */
export class Browser {
  readonly jar = new Map<string, string>();
  readonly h: Harness;
  constructor(h: Harness) {
    this.h = h;
  }
  get cookie(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  keep(res: LightMyRequestResponse): LightMyRequestResponse {
    const raw = res.headers['set-cookie'];
    for (const line of [raw ?? []].flat()) {
      const [pair] = line.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      if (!value || /max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return res;
  }
  async get(url: string): Promise<LightMyRequestResponse> {
    return this.keep(await this.h.app.inject({ method: 'GET', url: pathOf(url), headers: { cookie: this.cookie } }));
  }
  async post(url: string, form: Record<string, string>): Promise<LightMyRequestResponse> {
    return this.keep(
      await this.h.app.inject({
        method: 'POST',
        url: pathOf(url),
        headers: { cookie: this.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(form).toString(),
      }),
    );
  }
}

export const pathOf = (url: string) => (url.startsWith('/') ? url : new URL(url).pathname + new URL(url).search);

export const hiddenField = (html: string, name: string): string => {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!m) throw new Error(`no field ${name} in ${html.slice(0, 500)}`);
  return m[1]!.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));
};

export async function register(
  h: Harness,
  body: Record<string, unknown> = {},
): Promise<{ client_id: string; client_secret?: string }> {
  const res = await h.req({
    method: 'POST',
    url: '/auth/oauth/register',
    payload: {
      client_name: 'ChatGPT',
      redirect_uris: [CHATGPT_CALLBACK],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...body,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export interface AuthorizeOptions {
  clientId: string;
  redirectUri?: string;
  challenge?: string;
  resource?: string | null;
  /** null: no scope parameter at all. */
  scope?: string | null;
  state?: string;
  /** More authorization parameters (prompt, …). */
  extra?: Record<string, string>;
}

export function authorizeUrl(o: AuthorizeOptions): string {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: o.clientId,
    redirect_uri: o.redirectUri ?? CHATGPT_CALLBACK,
    state: o.state ?? 'st-123',
  });
  if (o.scope !== null) q.set('scope', o.scope ?? 'herald offline_access');
  if (o.challenge) {
    q.set('code_challenge', o.challenge);
    q.set('code_challenge_method', 'S256');
  }
  if (o.resource) q.set('resource', o.resource);
  for (const [k, v] of Object.entries(o.extra ?? {})) q.set(k, v);
  return `/auth/oauth/authorize?${q}`;
}

/** Authorization request → login form → workspace form → the redirect back to the client; returns that redirect. */
export async function signInAndAuthorize(
  h: Harness,
  user: TestUser,
  o: AuthorizeOptions & { workspaceId?: string },
): Promise<URL> {
  return signInAt(h, user, authorizeUrl(o), o.workspaceId);
}

/** The browser side from a given authorization URL (one a client library built) to the redirect back. */
export async function signInAt(h: Harness, user: TestUser, url: string, workspaceId?: string): Promise<URL> {
  const b = new Browser(h);
  const start = await b.get(url);
  expect(start.statusCode, start.body).toBe(303);
  const loginUrl = start.headers.location as string;
  expect(pathOf(loginUrl)).toMatch(/^\/auth\/oauth\/login\?uid=/);
  const form = await b.get(loginUrl);
  expect(form.statusCode).toBe(200);
  const uid = hiddenField(form.body, 'uid');
  const signedIn = await b.post('/auth/oauth/login', {
    uid,
    csrf: hiddenField(form.body, 'csrf'),
    email: user.email,
    password: user.password,
  });
  expect(signedIn.statusCode, signedIn.body).toBe(303);
  const pick = await b.get(signedIn.headers.location as string);
  expect(pick.statusCode, pick.body).toBe(200);
  expect(pick.body).toContain(`name="workspace_id" value="${user.workspaceId}"`);
  const chosen = await b.post('/auth/oauth/select-workspace', {
    uid,
    csrf: hiddenField(pick.body, 'csrf'),
    workspace_id: workspaceId ?? user.workspaceId,
  });
  expect(chosen.statusCode, chosen.body).toBe(303);
  const back = await b.get(chosen.headers.location as string);
  expect(back.statusCode, back.body).toBe(303);
  if (!/^https?:/.test(String(back.headers.location)))
    throw new Error(`resume went to ${String(back.headers.location)}: ${back.body}`);
  return new URL(back.headers.location as string);
}

export async function exchange(
  h: Harness,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return h.req({
    method: 'POST',
    url: '/auth/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(form).toString(),
  });
}

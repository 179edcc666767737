// Helpers for RFC 6749-style token endpoints.
import type { FastifyRequest } from 'fastify';
import { basicCredentials, bodyParams, queryParams } from './http.ts';
import type { Params } from './http.ts';
import type { ErrorAnswer } from './route.ts';
import type { SandboxContext } from './context.ts';
import { addRoute } from './route.ts';
import type { Simulator } from './route.ts';

export function oauthError(
  status: number,
  error: string,
  description: string,
  extra: Record<string, string> = {},
): ErrorAnswer {
  return { status, body: { error, error_description: description, ...extra } };
}

/** Client credentials from the form body, or from HTTP Basic when the network allows it. */
export function clientCredentials(
  req: FastifyRequest,
  form: Params,
  opts: { idParam?: string; basic: 'never' | 'allowed' | 'required' },
): { clientId: string | undefined; clientSecret: string | undefined } {
  const basic = opts.basic === 'never' ? undefined : basicCredentials(req);
  if (opts.basic === 'required') return { clientId: basic?.user, clientSecret: basic?.password };
  return {
    clientId: form[opts.idParam ?? 'client_id'] ?? basic?.user,
    clientSecret: form.client_secret ?? basic?.password,
  };
}

/** Token endpoints are form posts; a few networks also accept the same parameters in the query string. */
export function tokenParams(req: FastifyRequest, queryToo: boolean): Params {
  return queryToo ? { ...queryParams(req), ...bodyParams(req) } : bodyParams(req);
}

export function scopeString(scopes: string[], separator: ',' | ' '): string {
  return scopes.join(separator);
}

/** A small inline SVG avatar per account, so profile pictures resolve without leaving the sandbox. */
export function registerAvatars(sim: Simulator): void {
  addRoute(sim, {
    method: 'GET',
    url: '/_sandbox/avatar/:name',
    ops: [],
    surface: 'api',
    handler: (req, reply) => {
      const name = String((req.params as { name?: string }).name ?? '?').replace(/\.svg$/, '');
      const hue = [...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 360, 0);
      const letter = (name.match(/[A-Za-z]/)?.[0] ?? 'S').toUpperCase();
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><rect width="200" height="200" fill="hsl(${hue},55%,55%)"/><text x="100" y="128" font-size="96" text-anchor="middle" fill="#fff" font-family="sans-serif">${letter}</text></svg>`;
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(svg);
    },
  });
}

export function avatarUrl(ctx: SandboxContext, platform: Simulator['platform'], id: string): string {
  return `${ctx.base(platform)}/_sandbox/avatar/${encodeURIComponent(id)}.svg`;
}

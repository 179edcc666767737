// The browser-facing half of an OAuth authorization-code flow, shared by every OAuth network: parameter validation,
// the consent page, the Approve / Deny post-back and the redirect carrying `code` + `state` (or the error).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SANDBOX_APP_NAME, SANDBOX_APPS } from '../apps.ts';
import { ensureAccount, normalizeUserKey } from './accounts.ts';
import type { AccountDraft } from './accounts.ts';
import type { SandboxContext } from './context.ts';
import { bodyParams, headerValue, queryParams } from './http.ts';
import { randomId } from './ids.ts';
import { consentPage, errorPage } from './pages.ts';
import { isValidChallenge } from './pkce.ts';
import type { PkceMethod } from './pkce.ts';
import { addRoute } from './route.ts';
import type { Call, Simulator } from './route.ts';
import { lifetimeSec } from './store.ts';
import { createGrant, issueCode } from './tokens.ts';
import type { OAuthPlatform, PendingAuthorization } from './types.ts';

export const AUTO_APPROVE_HEADER = 'x-sandbox-auto-approve';
export const USER_HEADER = 'x-sandbox-user';
const PENDING_TTL_MS = 60 * 60 * 1000;

export type PageProblem = 'client' | 'redirect' | 'scope' | 'request';

export interface AuthorizeSpec {
  platform: OAuthPlatform;
  /** Path of the authorize endpoint inside the simulator, as on the real host. */
  path: string;
  network: string;
  clientIdParam: string;
  scopeDelimiter: RegExp;
  knownScopes: readonly string[];
  scopeRequired: boolean;
  /** PKCE methods the network honours; empty = the network ignores PKCE parameters. */
  pkceMethods: readonly PkceMethod[];
  codeTtlSec: number;
  newCode(): string;
  /** How an unknown scope is reported: an error page, or a redirect with this `error` value. */
  invalidScope: 'page' | string;
  denyParams: Record<string, string>;
  /** Appended to the success redirect (Instagram adds `#_`). */
  redirectFragment?: string;
  successParams?(pending: PendingAuthorization): Record<string, string>;
  /** Authorize parameters kept with the code for the token step (e.g. Google's access_type / prompt). */
  keepParams?: readonly string[];
  pageError?(problem: PageProblem, detail: string): { status: number; title: string; message: string };
  buildAccount(userKey: string): AccountDraft;
}

/**
 * Registered redirects: any URI under publicUrl whose path ends in /<platform>/oauth/callback, plus configured extras.
 */
export function isRegisteredRedirect(ctx: SandboxContext, platform: OAuthPlatform, uri: string): boolean {
  if (ctx.store.config.redirectUris.includes(uri)) return true;
  let url: URL;
  let pub: URL;
  try {
    url = new URL(uri);
    pub = new URL(ctx.publicUrl);
  } catch {
    return false;
  }
  if (url.origin !== pub.origin || url.search || url.hash || url.username || url.password) return false;
  if (url.toString() !== uri) return false;
  const basePath = pub.pathname.replace(/\/+$/, '');
  return url.pathname.startsWith(`${basePath}/`) && url.pathname.endsWith(`/${platform}/oauth/callback`);
}

function redirectTo(
  reply: FastifyReply,
  uri: string,
  params: Record<string, string | null>,
  fragment = '',
): FastifyReply {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return reply.redirect(`${url.toString()}${fragment}`, 302);
}

function showPage(reply: FastifyReply, spec: AuthorizeSpec, problem: PageProblem, detail: string): FastifyReply {
  const page = spec.pageError?.(problem, detail) ?? {
    status: 400,
    title: `${spec.network}: invalid request`,
    message: detail,
  };
  return reply.code(page.status).type('text/html; charset=utf-8').send(errorPage(page.title, page.message));
}

function approve(call: Call, spec: AuthorizeSpec, reply: FastifyReply, pending: PendingAuthorization, user: string) {
  const { ctx, slice } = call;
  slice.pending.delete(pending.id);
  const account = ensureAccount(ctx, slice, normalizeUserKey(user), spec.buildAccount);
  const grant = createGrant(ctx, slice, { clientId: pending.clientId, accountId: account.id, scopes: pending.scopes });
  const ttl = lifetimeSec(ctx.store, spec.platform, 'code', spec.codeTtlSec);
  const code = issueCode(ctx, slice, pending, {
    code: spec.newCode(),
    accountId: account.id,
    grantId: grant.id,
    ttlSec: ttl,
  });
  const extra = spec.successParams?.(pending) ?? {};
  return redirectTo(
    reply,
    pending.redirectUri,
    { code: code.code, ...extra, state: pending.state },
    spec.redirectFragment,
  );
}

function prunePending(call: Call): void {
  const cutoff = call.ctx.nowMs() - PENDING_TTL_MS;
  for (const [id, p] of call.slice.pending) if (p.createdAt < cutoff) call.slice.pending.delete(id);
}

async function startAuthorization(
  req: FastifyRequest,
  reply: FastifyReply,
  call: Call,
  spec: AuthorizeSpec,
  consentUrl: string,
) {
  const q = queryParams(req);
  const clientId = q[spec.clientIdParam];
  if (!clientId) return showPage(reply, spec, 'client', `Missing required parameter: ${spec.clientIdParam}`);
  if (clientId !== SANDBOX_APPS[spec.platform].clientId) {
    return showPage(reply, spec, 'client', `The ${spec.clientIdParam} "${clientId}" is not a registered application.`);
  }
  const redirectUri = q.redirect_uri;
  if (!redirectUri) return showPage(reply, spec, 'redirect', 'Missing required parameter: redirect_uri');
  if (!isRegisteredRedirect(call.ctx, spec.platform, redirectUri)) {
    return showPage(
      reply,
      spec,
      'redirect',
      `The redirect_uri "${redirectUri}" is not registered for this application.`,
    );
  }
  const state = q.state ?? null;
  const fail = (error: string, description: string) =>
    redirectTo(reply, redirectUri, { error, error_description: description, state });
  if (q.response_type !== 'code') {
    return fail('unsupported_response_type', `response_type must be "code", got "${q.response_type ?? ''}"`);
  }
  if (!state) return fail('invalid_request', 'Missing required parameter: state');
  const scopes = (q.scope ?? '').split(spec.scopeDelimiter).filter(Boolean);
  const unknown = scopes.filter((s) => !spec.knownScopes.includes(s));
  if ((spec.scopeRequired && scopes.length === 0) || unknown.length > 0) {
    const detail = unknown.length ? `Invalid scope(s): ${unknown.join(', ')}` : 'Missing required parameter: scope';
    if (spec.invalidScope === 'page') return showPage(reply, spec, 'scope', detail);
    return fail(unknown.length ? spec.invalidScope : 'invalid_request', detail);
  }
  let challenge: string | null = null;
  let method: string | null = null;
  if (spec.pkceMethods.length > 0) {
    challenge = q.code_challenge ?? null;
    method = challenge ? (q.code_challenge_method ?? 'plain') : null;
    if (!challenge && q.code_challenge_method)
      return fail('invalid_request', 'code_challenge_method without code_challenge');
    if (method && !(spec.pkceMethods as readonly string[]).includes(method)) {
      return fail('invalid_request', `Unsupported code_challenge_method: ${method}`);
    }
    if (challenge && !isValidChallenge(challenge)) return fail('invalid_request', 'Invalid code_challenge');
  }
  const extras: Record<string, string> = {};
  for (const key of spec.keepParams ?? []) if (q[key] !== undefined) extras[key] = q[key];
  prunePending(call);
  const pending: PendingAuthorization = {
    id: randomId(),
    clientId,
    redirectUri,
    scopes,
    state,
    codeChallenge: challenge,
    codeChallengeMethod: method,
    extras,
    createdAt: call.ctx.nowMs(),
  };
  call.slice.pending.set(pending.id, pending);
  const user = headerValue(req, USER_HEADER) ?? q.login_hint;
  if (headerValue(req, AUTO_APPROVE_HEADER) === '1') return approve(call, spec, reply, pending, user ?? '');
  const requestedFor = call.ctx.describeRequest
    ? await call.ctx.describeRequest(spec.platform, state).catch(() => null)
    : null;
  const html = consentPage({
    requestedFor,
    network: spec.network,
    appName: SANDBOX_APP_NAME,
    scopes,
    action: consentUrl,
    pendingId: pending.id,
    userKey: normalizeUserKey(user),
  });
  return reply.code(200).type('text/html; charset=utf-8').send(html);
}

/** Registers GET <spec.path> (operation `authorize`) and the consent post-back POST /_sandbox/consent. */
export function registerAuthorize(sim: Simulator, spec: AuthorizeSpec): void {
  const consentPath = '/_sandbox/consent';
  const consentUrl = `${sim.ctx.mount}/${spec.platform}${consentPath}`;
  addRoute(sim, {
    method: 'GET',
    url: spec.path,
    ops: ['authorize'],
    surface: 'page',
    handler: (req, reply, call) => startAuthorization(req, reply, call, spec, consentUrl),
  });
  addRoute(sim, {
    method: 'POST',
    url: consentPath,
    ops: [],
    surface: 'page',
    handler: (req, reply, call) => {
      const form = bodyParams(req);
      const pending = call.slice.pending.get(form.pending ?? '');
      if (!pending) return showPage(reply, spec, 'request', 'This authorization request has expired. Start again.');
      if (form.decision === 'approve') return approve(call, spec, reply, pending, form.user ?? '');
      call.slice.pending.delete(pending.id);
      return redirectTo(reply, pending.redirectUri, { ...spec.denyParams, state: pending.state });
    },
  });
}

// LinkedIn's error bodies: OAuth endpoints use {error, error_description}; the API uses
// {status, serviceErrorCode, code, message}.
import type { FastifyRequest } from 'fastify';
import { dayIn, presentedToken, spend, strictOn, usageOf } from '../core/strict.ts';
import type { Call, ErrorAnswer, RouteSpec, Surface, TransientFault } from '../core/route.ts';
import type { TokenProblem } from '../core/tokens.ts';

export function apiError(status: number, code: string, message: string, serviceErrorCode?: number): ErrorAnswer {
  const body: Record<string, unknown> = { status, code, message };
  if (serviceErrorCode !== undefined) body.serviceErrorCode = serviceErrorCode;
  return { status, body };
}

export function notFound(urn: string): ErrorAnswer {
  return apiError(404, 'NOT_FOUND', `Not Found: ${urn}`);
}

const TOKEN_ERRORS: Record<TokenProblem, [number, string, string]> = {
  missing: [65604, 'EMPTY_ACCESS_TOKEN', 'Empty oauth2 access token'],
  invalid: [65600, 'INVALID_ACCESS_TOKEN', 'Invalid access token'],
  expired: [65601, 'EXPIRED_ACCESS_TOKEN', 'The token used in the request has expired'],
  revoked: [65602, 'REVOKED_ACCESS_TOKEN', 'The token used in the request has been revoked by the user'],
};

export function tokenError(problem: TokenProblem): ErrorAnswer {
  const [serviceCode, code, message] = TOKEN_ERRORS[problem];
  return apiError(401, code, message, serviceCode);
}

export function accessDenied(method: string, resource: string): ErrorAnswer {
  return apiError(403, 'ACCESS_DENIED', `Not enough permissions to access: ${resource}.${method}.NO_VERSION`, 100);
}

export function linkedInFault(kind: TransientFault, surface: Exclude<Surface, 'page'>): ErrorAnswer {
  if (surface === 'oauth') {
    return kind === 'rate_limit'
      ? { status: 429, body: { error: 'temporarily_unavailable', error_description: 'Too many requests' } }
      : { status: 500, body: { error: 'server_error', error_description: 'Internal Server Error' } };
  }
  return kind === 'rate_limit'
    ? apiError(429, 'TOO_MANY_REQUESTS', 'Resource level throttle limit for calls to this resource is reached.', 101)
    : apiError(500, 'INTERNAL_SERVER_ERROR', 'Internal Server Error');
}

/** Active versions: the current month and the twelve before it (LinkedIn supports each release for at least a year). */
export function versionProblem(header: string | undefined, nowMs: number): ErrorAnswer | null {
  if (!header) {
    return apiError(
      400,
      'VERSION_MISSING',
      'A version must be present. Please specify a version by adding the LinkedIn-Version header.',
    );
  }
  const match = /^(\d{4})(\d{2})(?:\.\d{2})?$/.exec(header.trim());
  const now = new Date(nowMs);
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const requested = match ? Number(match[1]) * 12 + Number(match[2]) - 1 : Number.NaN;
  const monthOk = match ? Number(match[2]) >= 1 && Number(match[2]) <= 12 : false;
  if (!monthOk || requested > current || requested < current - 12) {
    return apiError(426, 'NONEXISTENT_VERSION', `Requested version ${header} is not active`);
  }
  return null;
}

/** Share on LinkedIn's documented daily limits: 150 post creations per member, 100,000 per app, per UTC day. */
export const MEMBER_POSTS_PER_DAY = 150;
export const APP_POSTS_PER_DAY = 100_000;

/**
 * `rate_limits`: post creations counted per member and per app for the UTC day; over either, 429 without a
 * Retry-After (LinkedIn documents none; the quotas reset at 00:00 UTC).
 */
export function linkedInLimits(req: FastifyRequest, call: Call, spec: RouteSpec): ErrorAnswer | null {
  if (!strictOn(call.ctx, 'rate_limits') || spec.url !== '/rest/posts' || req.method !== 'POST') return null;
  const token = presentedToken(req, call.slice);
  if (!token) return null;
  const day = dayIn(call.ctx, 'UTC');
  const member = `linkedin:posts:member:${token.accountId}:${day}`;
  const app = `linkedin:posts:app:${token.clientId ?? ''}:${day}`;
  if (usageOf(call.ctx, member) >= MEMBER_POSTS_PER_DAY || !spend(call.ctx, app, APP_POSTS_PER_DAY)) {
    return apiError(
      429,
      'TOO_MANY_REQUESTS',
      'Resource level throttle limit for calls to this resource is reached.',
      101,
    );
  }
  spend(call.ctx, member, MEMBER_POSTS_PER_DAY);
  return null;
}

/** The Posts API's answer to the same author, commentary and content within 10 minutes, as LinkedIn sends it. */
export function duplicatePost(urn: string): ErrorAnswer {
  return {
    status: 422,
    body: {
      errorDetailType: 'com.linkedin.common.error.BadRequest',
      message: `com.linkedin.content.common.exception.BadRequestResponseException: Content is a duplicate of ${urn}`,
      errorDetails: { inputErrors: [{ description: 'Duplicate post is detected', input: {}, code: 'DUPLICATE_POST' }] },
      status: 422,
    },
  };
}

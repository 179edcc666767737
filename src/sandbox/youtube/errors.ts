// Google error shapes: the OAuth server answers {error, error_description}; Google APIs answer
// {error: {code, message, errors: [{message, domain, reason, …}], status}}.
import type { FastifyRequest } from 'fastify';
import type { Call, ErrorAnswer, RouteSpec, Surface, TransientFault } from '../core/route.ts';
import { dayIn, presentedToken, spend, strictOn } from '../core/strict.ts';
import type { TokenProblem } from '../core/tokens.ts';

export function googleApiError(
  code: number,
  status: string,
  message: string,
  reason: string,
  extra: { domain?: string; location?: string; locationType?: string } = {},
  headers?: Record<string, string>,
): ErrorAnswer {
  const detail = {
    message,
    domain: extra.domain ?? 'global',
    reason,
    ...(extra.location ? { location: extra.location, locationType: extra.locationType ?? 'parameter' } : {}),
  };
  const answer: ErrorAnswer = { status: code, body: { error: { code, message, errors: [detail], status } } };
  if (headers) answer.headers = headers;
  return answer;
}

const CREDENTIALS_HINT =
  'Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

export function apiAuthError(problem: TokenProblem): ErrorAnswer {
  const headers = { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' };
  if (problem === 'missing') {
    return googleApiError(
      401,
      'UNAUTHENTICATED',
      `Request is missing required authentication credential. ${CREDENTIALS_HINT}`,
      'required',
      {
        location: 'Authorization',
        locationType: 'header',
      },
      { 'www-authenticate': 'Bearer realm="https://accounts.google.com/"' },
    );
  }
  return googleApiError(
    401,
    'UNAUTHENTICATED',
    `Request had invalid authentication credentials. ${CREDENTIALS_HINT}`,
    'authError',
    {
      location: 'Authorization',
      locationType: 'header',
    },
    headers,
  );
}

export function insufficientScopes(): ErrorAnswer {
  return googleApiError(
    403,
    'PERMISSION_DENIED',
    'Request had insufficient authentication scopes.',
    'insufficientPermissions',
    {},
    {
      'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="insufficient_scope"',
    },
  );
}

export function googleFault(kind: TransientFault, surface: Exclude<Surface, 'page'>): ErrorAnswer {
  if (surface === 'oauth') {
    return kind === 'rate_limit'
      ? {
          status: 429,
          body: { error: 'rate_limit_exceeded', error_description: 'Rate limit exceeded. Try again later.' },
        }
      : { status: 500, body: { error: 'internal_failure', error_description: 'Backend Error' } };
  }
  return kind === 'rate_limit'
    ? googleApiError(
        429,
        'RESOURCE_EXHAUSTED',
        'The request cannot be completed because you have exceeded your rate limit.',
        'rateLimitExceeded',
        {
          domain: 'youtube.quota',
        },
      )
    : googleApiError(503, 'UNAVAILABLE', 'The service is currently unavailable.', 'backendError');
}

/**
 * Quota units per call in Google's long-standing model (the conservative one of the two the docs give): an upload
 * (charged when its session starts) 1,600, writes 50, reads 1. The bytes of an upload session cost nothing more.
 */
export function quotaCost(req: FastifyRequest, spec: RouteSpec): number {
  if (spec.url === '/upload/youtube/v3/videos') return req.method === 'POST' ? 1600 : 0;
  return req.method === 'GET' ? 1 : 50;
}

export function quotaExceeded(): ErrorAnswer {
  return googleApiError(
    403,
    'PERMISSION_DENIED',
    'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
    'quotaExceeded',
    { domain: 'youtube.quota' },
  );
}

/**
 * `youtube_quota`: every Data API call spends its units from the project's (OAuth client's) daily quota
 * (`_config.youtubeDailyQuota`, 10,000 by default), which resets at midnight Pacific time; a call it does not cover is
 * refused with 403 quotaExceeded and spends nothing.
 */
export function youtubeQuota(req: FastifyRequest, call: Call, spec: RouteSpec): ErrorAnswer | null {
  if (!strictOn(call.ctx, 'youtube_quota') || spec.surface !== 'api') return null;
  const cost = quotaCost(req, spec);
  if (cost === 0) return null;
  const project = presentedToken(req, call.slice)?.clientId ?? 'anonymous';
  const key = `youtube:quota:${project}:${dayIn(call.ctx, 'America/Los_Angeles')}`;
  return spend(call.ctx, key, call.ctx.store.config.youtubeDailyQuota, cost) ? null : quotaExceeded();
}

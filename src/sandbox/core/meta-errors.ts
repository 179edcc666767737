// Documented Graph errors shared by the Meta simulators (documented.ts): the throttles Graph answers with codes other
// than the `rate_limit` fault's code 4, with the usage headers Meta documents for them, and dead sessions.
import type { ErrorCatalogue } from './documented.ts';
import { graphError } from './graph.ts';

/** Business Use Case usage at 100 % with Meta's estimate of when access returns, in minutes. */
export function bucUsage(id: string, type: string, minutes: number): Record<string, string> {
  return {
    'x-business-use-case-usage': JSON.stringify({
      [id]: [{ type, call_count: 100, total_cputime: 40, total_time: 60, estimated_time_to_regain_access: minutes }],
    }),
  };
}

const APP_USAGE = { 'x-app-usage': JSON.stringify({ call_count: 100, total_cputime: 20, total_time: 30 }) };

/** Graph's throttles other than code 4; `buc` adds the Business Use Case limit (80001–80014) of that use case. */
export function metaThrottles(accountId: string, buc?: { type: string; code: number }): ErrorCatalogue {
  return {
    user_request_limit: {
      answer: graphError(400, { message: '(#17) User request limit reached', code: 17, transient: true }, APP_USAGE),
    },
    page_request_limit: {
      answer: graphError(
        400,
        { message: '(#32) Page request limit reached', code: 32, transient: true },
        bucUsage(accountId, 'pages', 12),
      ),
    },
    calls_within_limit: {
      answer: graphError(
        400,
        { message: '(#613) Calls to this api have exceeded the rate limit.', code: 613, transient: true },
        APP_USAGE,
      ),
    },
    ...(buc
      ? {
          buc_limit: {
            answer: graphError(
              400,
              {
                message: 'There have been too many calls for this account. Wait a bit and try again.',
                code: buc.code,
                transient: true,
              },
              bucUsage(accountId, buc.type, 30),
            ),
          },
        }
      : {}),
  };
}

/** Graph's 190 answers whose subcode says only logging in again helps. */
export function deadSessions(): ErrorCatalogue {
  const dead = (subcode: number, message: string) => ({ answer: graphError(400, { message, code: 190, subcode }) });
  return {
    password_changed: dead(
      460,
      'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.',
    ),
    session_invalidated: dead(
      467,
      'Error validating access token: The session is invalid because the user logged out.',
    ),
  };
}

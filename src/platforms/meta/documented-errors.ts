// Documented Graph errors the three Meta networks share (../documented-errors.ts): dead grants, missing permissions
// and the throttles Meta's Graph error reference lists for every Graph API. Each network adds its own.
import type { DocumentedError } from '../documented-errors.ts';

const fault = (error: string) => ({ operation: 'publish', fault: 'error', error }) as const;

/** 190 with the subcodes every Meta API sends, 10 and 200. `expired` says what follows an expired token. */
export function metaGrantErrors(expired: string): DocumentedError[] {
  return [
    {
      code: '190/463',
      meaning: 'access token expired',
      kind: 'auth_expired',
      retry: expired,
      simulated: { operation: 'publish', fault: 'expire_token' },
    },
    {
      code: '190/458',
      meaning: 'the app was removed by the user (REVOKED_ACCESS_TOKEN)',
      kind: 'reauth_required',
      retry: 'no: reconnect',
      simulated: { operation: 'publish', fault: 'revoke' },
    },
    {
      code: '190/460',
      meaning: 'session invalidated: password changed',
      kind: 'reauth_required',
      retry: 'no: reconnect',
      simulated: fault('password_changed'),
    },
    {
      code: '190/467',
      meaning: 'session invalidated ("session has been invalidated", logged out)',
      kind: 'reauth_required',
      retry: 'no: reconnect',
      simulated: fault('session_invalidated'),
    },
    {
      code: '10',
      meaning: 'permission missing',
      kind: 'permission',
      retry: 'no',
      simulated: fault('permission_denied'),
    },
    {
      code: '200',
      meaning: 'permission missing or removed (200–299, "Not enough permissions to post")',
      kind: 'permission',
      retry: 'no',
      simulated: fault('permission_200'),
    },
  ];
}

/** Graph's throttles: 4 by the `rate_limit` fault (X-App-Usage), 17, 32 and 613 by the simulators' shared answers. */
export function metaThrottleErrors(): DocumentedError[] {
  return [
    {
      code: '4',
      meaning: 'application request limit (X-App-Usage)',
      kind: 'rate_limited',
      retry: 'retried with backoff',
      simulated: { operation: 'publish', fault: 'rate_limit' },
    },
    {
      code: '17',
      meaning: 'user request limit',
      kind: 'rate_limited',
      retry: 'retried with backoff',
      simulated: fault('user_request_limit'),
    },
    {
      code: '32',
      meaning: 'Page or account request limit (X-Business-Use-Case-Usage)',
      kind: 'rate_limited',
      retry: 'after `estimated_time_to_regain_access`',
      simulated: fault('page_request_limit'),
    },
    {
      code: '613',
      meaning: 'calls exceeded the rate limit',
      kind: 'rate_limited',
      retry: 'retried with backoff',
      simulated: fault('calls_within_limit'),
    },
  ];
}

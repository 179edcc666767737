// Pinterest v5 errors are {code, message} with the HTTP status carrying the class.
import type { ErrorAnswer, TransientFault } from '../core/route.ts';

export function pinError(status: number, code: number, message: string): ErrorAnswer {
  return { status, body: { code, message } };
}

export const AUTH_FAILED = (): ErrorAnswer => pinError(401, 2, 'Authentication failed.');

export function missingScope(scope: string): ErrorAnswer {
  return pinError(403, 3, `Your application consumer key was not granted the required scopes to access this resource. Missing scope: ${scope}`);
}

export function pinterestFault(kind: TransientFault): ErrorAnswer {
  return kind === 'rate_limit'
    ? pinError(429, 8, 'You have exceeded your rate limit. Try again later.')
    : pinError(500, 5, 'Something went wrong on our end. Sorry about that.');
}

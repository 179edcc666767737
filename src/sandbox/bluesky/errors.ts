// XRPC errors: HTTP status plus {error, message}.
import type { ErrorAnswer, TransientFault } from '../core/route.ts';
import type { TokenProblem } from '../core/tokens.ts';

export function xrpcError(status: number, error: string, message: string, headers?: Record<string, string>): ErrorAnswer {
  return headers ? { status, body: { error, message }, headers } : { status, body: { error, message } };
}

/** Access-token failures as the reference PDS reports them: expiry and revocation are 400s, not 401s. */
export function sessionError(problem: TokenProblem | 'wrong_type'): ErrorAnswer {
  switch (problem) {
    case 'missing':
      return xrpcError(401, 'AuthMissing', 'Authentication Required');
    case 'expired':
      return xrpcError(400, 'ExpiredToken', 'Token has expired');
    case 'revoked':
      return xrpcError(400, 'ExpiredToken', 'Token has been revoked');
    case 'wrong_type':
      return xrpcError(400, 'InvalidToken', 'Invalid token type');
    default:
      return xrpcError(400, 'InvalidToken', 'Token could not be verified');
  }
}

export function blueskyFault(kind: TransientFault, nowMs: number): ErrorAnswer {
  if (kind === 'rate_limit') {
    return xrpcError(429, 'RateLimitExceeded', 'Rate Limit Exceeded', {
      'ratelimit-limit': '30',
      'ratelimit-remaining': '0',
      'ratelimit-reset': String(Math.floor(nowMs / 1000) + 300),
      'ratelimit-policy': '30;w=300',
    });
  }
  return xrpcError(500, 'InternalServerError', 'Internal Server Error');
}

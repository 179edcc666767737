// Strict rate_limits for the Bluesky PDS, as Bluesky's rate-limit guide documents them: record writes cost points per
// account (DID), 5,000 an hour and 35,000 a day (create 3, update 2, delete 1); createSession is limited per handle,
// 30 per 5 minutes and 100 a day (the entryway's figure; the PDS's own is 300). Beyond a limit the PDS answers 429
// RateLimitExceeded with the RateLimit-* headers, RateLimit-Reset in epoch seconds.
import type { FastifyRequest } from 'fastify';
import { isObj } from '../core/http.ts';
import type { Call, ErrorAnswer, RouteSpec } from '../core/route.ts';
import { presentedToken, spend, strictOn, usageOf } from '../core/strict.ts';
import { xrpcError } from './errors.ts';

const POINTS: Record<string, number> = {
  '/xrpc/com.atproto.repo.createRecord': 3,
  '/xrpc/com.atproto.repo.putRecord': 2,
  '/xrpc/com.atproto.repo.deleteRecord': 1,
};

interface Window {
  name: string;
  seconds: number;
  limit: number;
}

const WRITE_WINDOWS: Window[] = [
  { name: 'hour', seconds: 3600, limit: 5000 },
  { name: 'day', seconds: 86_400, limit: 35_000 },
];
const SESSION_WINDOWS: Window[] = [
  { name: '5min', seconds: 300, limit: 30 },
  { name: 'day', seconds: 86_400, limit: 100 },
];

/**
 * Spends `cost` in every window (fixed windows of the sandbox clock), or answers 429 for the first one it would
 * overrun.
 */
function within(call: Call, key: string, windows: Window[], cost: number): ErrorAnswer | null {
  const now = Math.floor(call.ctx.nowMs() / 1000);
  const buckets = windows.map((w) => ({ w, start: now - (now % w.seconds) }));
  for (const { w, start } of buckets) {
    const bucket = `bluesky:${key}:${w.name}:${start}`;
    if (usageOf(call.ctx, bucket) + cost > w.limit) {
      return xrpcError(429, 'RateLimitExceeded', 'Rate Limit Exceeded', {
        'ratelimit-limit': String(w.limit),
        'ratelimit-remaining': '0',
        'ratelimit-reset': String(start + w.seconds),
        'ratelimit-policy': `${w.limit};w=${w.seconds}`,
      });
    }
  }
  for (const { w, start } of buckets) spend(call.ctx, `bluesky:${key}:${w.name}:${start}`, w.limit, cost);
  return null;
}

export function blueskyLimits(req: FastifyRequest, call: Call, spec: RouteSpec): ErrorAnswer | null {
  if (!strictOn(call.ctx, 'rate_limits')) return null;
  const points = POINTS[spec.url];
  if (points) {
    const token = presentedToken(req, call.slice);
    return token ? within(call, `writes:${token.accountId}`, WRITE_WINDOWS, points) : null;
  }
  if (spec.url === '/xrpc/com.atproto.server.createSession') {
    const identifier =
      isObj(req.body) && typeof req.body.identifier === 'string' ? req.body.identifier.toLowerCase() : '';
    return identifier ? within(call, `sessions:${identifier}`, SESSION_WINDOWS, 1) : null;
  }
  return null;
}

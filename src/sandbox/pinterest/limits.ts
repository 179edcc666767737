// Strict rate_limits for Pinterest, as its rate-limit reference documents the universal limit of an app with Trial
// access (which every new app has until Pinterest upgrades it to Standard): 1,000 API requests a day for the whole
// app. Beyond it, 429 with Pinterest's code 8 until the next UTC day (Pinterest does not say which day boundary).
import type { FastifyRequest } from 'fastify';
import type { Call, ErrorAnswer, RouteSpec } from '../core/route.ts';
import { dayIn, presentedToken, spend, strictOn } from '../core/strict.ts';
import { pinterestFault } from './errors.ts';

export const TRIAL_REQUESTS_PER_DAY = 1000;

export function pinterestLimits(req: FastifyRequest, call: Call, spec: RouteSpec): ErrorAnswer | null {
  if (!strictOn(call.ctx, 'rate_limits') || spec.surface !== 'api') return null;
  const token = presentedToken(req, call.slice);
  if (!token) return null;
  return spend(call.ctx, `pinterest:trial:${token.clientId ?? ''}:${dayIn(call.ctx, 'UTC')}`, TRIAL_REQUESTS_PER_DAY)
    ? null
    : pinterestFault('rate_limit');
}

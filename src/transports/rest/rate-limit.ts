// Request budgets. The access plugin charges every request once it knows who is calling: a valid
// credential spends its own budget (per API key, per user for sessions); anonymous requests and
// failed authentications spend their client address's budget, so neither a random X-API-Key header
// nor a stream of wrong keys escapes it. Sign-in routes opt into a smaller per-address budget.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { AppContext } from '../../app-context.ts';
import type { Principal, UserPrincipal } from '../../auth/authenticate.ts';
import { AppError } from '../../errors.ts';

/** Which budget a request spends (see `Access` in access.ts). */
export type Budget = 'general' | 'auth' | 'none';

export type Charge = (
  req: FastifyRequest,
  reply: FastifyReply,
  budget: Budget,
  who?: Principal | UserPrincipal,
) => Promise<void>;

const KEY = Symbol('herald.rateKey');
type Keyed = FastifyRequest & { [KEY]?: string };

/** The store key of a request: the credential when one was accepted, the client address otherwise. */
function budgetKey(req: FastifyRequest, budget: Budget, who: Principal | UserPrincipal | undefined): string {
  if (who && budget === 'general') {
    if ('keyId' in who && who.keyId) return `key:${who.keyId}`;
    if (who.user) return `user:${who.user.id}`;
  }
  // IPv6 clients are grouped by /64: one host usually owns a whole prefix.
  const addr = normalizeIP(req.ip);
  return budget === 'auth' ? `auth:ip:${addr}` : `ip:${addr}`;
}

export async function installRateLimits(app: FastifyInstance, ctx: AppContext): Promise<Charge> {
  const { max, authMax, windowSeconds, redisPrefix } = ctx.config.rateLimit;
  await app.register(rateLimit, {
    // No hooks of its own: the access plugin calls the limiter after authentication.
    global: false,
    max: (_req, key) => (key.startsWith('auth:') ? authMax : max),
    timeWindow: windowSeconds * 1000,
    enableDraftSpec: true,
    ...(ctx.redis ? { redis: ctx.redis, nameSpace: redisPrefix } : {}),
    keyGenerator: (req) => (req as Keyed)[KEY]!,
    errorResponseBuilder: (req, context) => {
      const perCredential = /^(key|user):/.test((req as Keyed)[KEY] ?? '');
      return new AppError(
        'APIKEY_RATE_LIMIT',
        {
          error: 'APIKEY_RATE_LIMIT',
          message: perCredential ? 'API key rate limit exceeded.' : 'Rate limit exceeded for this client address.',
        },
        { headers: { 'retry-after': String(Math.ceil(context.ttl / 1000)) } },
      );
    },
  });
  const limiter = app.rateLimit();
  return async (req, reply, budget, who) => {
    if (budget === 'none') return;
    (req as Keyed)[KEY] = budgetKey(req, budget, who);
    await limiter.call(app, req, reply);
  };
}

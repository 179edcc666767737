// Long-lived token endpoints shared by Instagram Login (graph.instagram.com) and Threads (graph.threads.net):
// GET /access_token?grant_type=<x>_exchange_token turns a 1-hour token into a 60-day one; GET /refresh_access_token
// gives a fresh 60-day token for one that is at least 24 h old and unexpired. The old token keeps working.
import { graphError, graphTokenError } from './graph.ts';
import { allParams } from './http.ts';
import { addRoute, sendAnswer } from './route.ts';
import type { Simulator } from './route.ts';
import { lifetimeSec } from './store.ts';
import { checkToken, expiresInSec, mintToken } from './tokens.ts';
import type { MintInput } from './tokens.ts';
import type { TokenRecord } from './types.ts';

export const META_LONG_TTL = 5_183_944;
const DAY_MS = 86_400_000;

export interface LongLivedSpec {
  appId: string;
  appSecret: string;
  exchangeGrant: string;
  refreshGrant: string;
  newToken(): string;
}

function successor(from: TokenRecord, token: string, ttlSec: number): MintInput {
  const { clientId, accountId, grantId, scopes } = from;
  return { token, kind: 'long', clientId, accountId, grantId, scopes, ttlSec };
}

export function registerLongLivedTokens(sim: Simulator, spec: LongLivedSpec): void {
  const { ctx, platform } = sim;
  const ttl = () => lifetimeSec(ctx.store, platform, 'long', META_LONG_TTL);
  const info = (expiredAt: number | null | undefined) => ({
    nowMs: ctx.nowMs(),
    expiredAt: expiredAt ?? null,
    appId: spec.appId,
    aboutMe: false,
  });

  addRoute(sim, {
    method: 'GET',
    url: '/access_token',
    ops: ['token'],
    surface: 'oauth',
    handler: (req, reply, call) => {
      const p = allParams(req);
      if (p.grant_type !== spec.exchangeGrant) {
        return sendAnswer(
          reply,
          graphError(400, { message: `Unsupported grant_type: ${p.grant_type ?? ''}`, code: 100 }),
        );
      }
      if (p.client_secret !== spec.appSecret) {
        return sendAnswer(reply, graphError(400, { message: 'Error validating client secret.', code: 1 }));
      }
      const checked = checkToken(call, p.access_token, ['short']);
      if (!checked.ok) {
        const problem = checked.problem === 'missing' ? 'invalid' : checked.problem;
        return sendAnswer(reply, graphTokenError(problem, info(checked.token?.expiresAt)));
      }
      const long = mintToken(ctx, call.slice, successor(checked.token, spec.newToken(), ttl()));
      return reply.send({ access_token: long.token, token_type: 'bearer', expires_in: expiresInSec(ctx, long) });
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/refresh_access_token',
    ops: ['refresh', 'token'],
    surface: 'oauth',
    handler: (req, reply, call) => {
      const p = allParams(req);
      if (p.grant_type !== spec.refreshGrant) {
        return sendAnswer(
          reply,
          graphError(400, { message: `Unsupported grant_type: ${p.grant_type ?? ''}`, code: 100 }),
        );
      }
      const checked = checkToken(call, p.access_token, ['long']);
      if (!checked.ok) {
        const problem = checked.problem === 'missing' ? 'invalid' : checked.problem;
        return sendAnswer(reply, graphTokenError(problem, info(checked.token?.expiresAt)));
      }
      if (ctx.nowMs() - checked.token.issuedAt < DAY_MS) {
        return sendAnswer(
          reply,
          graphError(400, { message: 'The access token must be at least 24 hours old to be refreshed.', code: 100 }),
        );
      }
      const fresh = mintToken(ctx, call.slice, successor(checked.token, spec.newToken(), ttl()));
      return reply.send({ access_token: fresh.token, token_type: 'bearer', expires_in: expiresInSec(ctx, fresh) });
    },
  });
}

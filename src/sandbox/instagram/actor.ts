// Who a graph.instagram.com publishing call acts for: a versioned path, a valid Instagram Login token, and an
// `{ig-user-id}` that is the token's own professional account (its user_id, its app-scoped id, or `me`).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SANDBOX_APPS } from '../apps.ts';
import { str } from '../core/accounts.ts';
import { graphAuth, graphError, graphFault, missingPermission, unsupportedGet } from '../core/graph.ts';
import { presentedToken, spend, strictOn } from '../core/strict.ts';
import { sendAnswer } from '../core/route.ts';
import type { Call, ErrorAnswer, RouteSpec } from '../core/route.ts';
import type { AccountRecord, TokenRecord } from '../core/types.ts';

export interface IgActor {
  token: TokenRecord;
  account: AccountRecord;
  /** The professional account id (17841…), the publishing target. */
  igUserId: string;
}

export const PUBLISH_SCOPE = 'instagram_business_content_publish';
export const BASIC_SCOPE = 'instagram_business_basic';

export function versioned(req: FastifyRequest, reply: FastifyReply): boolean {
  const version = (req.params as { version?: string }).version ?? '';
  if (/^v\d+\.\d+$/.test(version)) return true;
  const path = new URL(req.url, 'http://x').pathname;
  sendAnswer(reply, graphError(400, { message: `Unknown path components: ${path}`, code: 2500 }));
  return false;
}

export function igActor(
  req: FastifyRequest,
  reply: FastifyReply,
  call: Call,
  scope: string,
  method: 'get' | 'post',
): IgActor | null {
  if (!versioned(req, reply)) return null;
  const token = graphAuth(call, req, reply, {
    kinds: ['short', 'long'],
    appId: SANDBOX_APPS.instagram.clientId,
    aboutMe: false,
  });
  if (!token) return null;
  const account = call.slice.accounts.get(token.accountId);
  const id = (req.params as { id: string }).id;
  const igUserId = str(account?.fields.user_id);
  if (!account || (id !== 'me' && id !== account.id && id !== igUserId)) {
    sendAnswer(reply, unsupportedGet(id, method));
    return null;
  }
  if (!token.scopes.includes(scope)) {
    sendAnswer(reply, missingPermission(scope));
    return null;
  }
  return { token, account, igUserId };
}

/** Instagram's publishing errors: Graph envelope with an IG subcode and the user-facing title / message. */
export function igError(code: number, subcode: number, message: string, userTitle?: string): ErrorAnswer {
  const prefix = code > 0 ? `(#${code}) ` : '';
  return graphError(400, {
    message: message.startsWith('(#') ? message : `${prefix}${message}`,
    type: 'OAuthException',
    code,
    ...(subcode ? { subcode } : {}),
    transient: false,
    ...(userTitle ? { userTitle, userMsg: message } : {}),
  });
}

/** A container still IN_PROGRESS, whether published itself or used as a carousel child. */
export const notReady = (): ErrorAnswer =>
  igError(
    9007,
    2207027,
    'The media is not ready for publishing, please wait for a moment',
    'Media ID is not available',
  );

/** A container that was not published within 24 hours. */
export const expired = (): ErrorAnswer =>
  igError(-2, 2207020, 'The media you are trying to access has expired. Please try to upload again.');

/**
 * Calls per app–account pair per hour under `rate_limits` (Graph's platform limit: 200 × users per hour; one user
 * here).
 */
export const CALLS_PER_HOUR = 200;

/**
 * `rate_limits`: Graph calls counted per app and account for the clock hour; beyond the limit every call gets Graph's
 * throttle answer (code 4, is_transient, X-App-Usage at 100 %) until the next hour.
 */
export function instagramLimits(req: FastifyRequest, call: Call, spec: RouteSpec): ErrorAnswer | null {
  if (!strictOn(call.ctx, 'rate_limits') || spec.surface !== 'api') return null;
  const token = presentedToken(req, call.slice);
  if (!token) return null;
  const hour = call.ctx.now().toISOString().slice(0, 13);
  return spend(call.ctx, `instagram:calls:${token.clientId ?? ''}:${token.accountId}:${hour}`, CALLS_PER_HOUR)
    ? null
    : graphFault('rate_limit');
}

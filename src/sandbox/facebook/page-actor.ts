// Publishing as a Page needs that Page's own access token (from /me/accounts) carrying pages_manage_posts and
// pages_read_engagement. A user token, or another Page's token, is refused with Graph's (#200) answer.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SANDBOX_APPS } from '../apps.ts';
import { findAsset } from '../core/accounts.ts';
import { graphError, graphTokenError, missingPermission, unsupportedGet } from '../core/graph.ts';
import { bearerToken } from '../core/http.ts';
import type { Obj } from '../core/http.ts';
import { param } from '../core/meta-publish.ts';
import { sendAnswer } from '../core/route.ts';
import type { Call, ErrorAnswer } from '../core/route.ts';
import { checkToken } from '../core/tokens.ts';
import type { AccountRecord, AssetRecord, TokenRecord } from '../core/types.ts';
import { versionOk } from './version.ts';

export interface PageActor {
  token: TokenRecord;
  account: AccountRecord;
  page: AssetRecord;
}

export const PAGE_POST_DENIED =
  '(#200) If posting to a group, requires app being installed in the group, and either publish_to_groups permission with user token, or both pages_read_engagement and pages_manage_posts permission with page token; If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin with sufficient administrative permission';

export function pagePostDenied(): ErrorAnswer {
  return graphError(403, { message: PAGE_POST_DENIED, code: 200 });
}

/** Graph's "(#N) …" parameter answer; the code comes from the message prefix, (#100) when it has none. */
export function invalidParam(
  message: string,
  extra: { subcode?: number; userTitle?: string; userMsg?: string } = {},
): ErrorAnswer {
  const code = Number(/^\(#(\d+)\)/.exec(message)?.[1] ?? 100);
  return graphError(400, { message: message.startsWith('(#') ? message : `(#100) ${message}`, code, ...extra });
}

/**
 * Resolves the acting Page. `input` carries the parameters of the call (a multipart body's fields included), since
 * the token may be an `access_token` form field.
 */
export function pageActor(
  req: FastifyRequest,
  reply: FastifyReply,
  call: Call,
  input: Obj,
  opts: { extraScope?: string } = {},
): PageActor | null {
  if (!versionOk(req, reply)) return null;
  const pageId = (req.params as { pageId: string }).pageId;
  const checked = checkToken(call, param(input, 'access_token') ?? bearerToken(req), ['short', 'long', 'page']);
  if (!checked.ok) {
    const info = {
      nowMs: call.ctx.nowMs(),
      expiredAt: checked.token?.expiresAt ?? null,
      appId: SANDBOX_APPS.facebook.clientId,
      aboutMe: false,
    };
    sendAnswer(reply, graphTokenError(checked.problem, info));
    return null;
  }
  const token = checked.token;
  const found = findAsset(call.slice, pageId);
  if (found?.asset.type !== 'page') {
    sendAnswer(reply, unsupportedGet(pageId, 'post'));
    return null;
  }
  const scopes = token.scopes;
  const rightPage = token.kind === 'page' && token.assetId === pageId && token.accountId === found.account.id;
  if (!rightPage || !scopes.includes('pages_manage_posts') || !scopes.includes('pages_read_engagement')) {
    sendAnswer(reply, pagePostDenied());
    return null;
  }
  if (opts.extraScope && !scopes.includes(opts.extraScope)) {
    sendAnswer(reply, missingPermission(opts.extraScope));
    return null;
  }
  return { token, account: found.account, page: found.asset };
}

// api.pinterest.com/v5 reads used when connecting an account: GET /v5/user_account and GET /v5/boards.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { assetsOf, str } from '../core/accounts.ts';
import { bearerToken, queryParams } from '../core/http.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, Simulator } from '../core/route.ts';
import { checkToken } from '../core/tokens.ts';
import type { AccountRecord, JsonObject } from '../core/types.ts';
import { AUTH_FAILED, missingScope, pinError } from './errors.ts';

/** A valid access token holding every scope in `scopes`; answers Pinterest's 401 / 403 otherwise. */
export function authed(
  req: FastifyRequest,
  reply: FastifyReply,
  call: Call,
  scopes: string | readonly string[],
): AccountRecord | null {
  const checked = checkToken(call, bearerToken(req), ['access']);
  const account = checked.ok ? call.slice.accounts.get(checked.token.accountId) : undefined;
  if (!checked.ok || !account) {
    sendAnswer(reply, AUTH_FAILED());
    return null;
  }
  const missing = (typeof scopes === 'string' ? [scopes] : scopes).find((s) => !checked.token.scopes.includes(s));
  if (missing) {
    sendAnswer(reply, missingScope(missing));
    return null;
  }
  return account;
}

export function registerPinterestApi(sim: Simulator): void {
  addRoute(sim, {
    method: 'GET',
    url: '/v5/user_account',
    ops: ['profile'],
    surface: 'api',
    handler: (req, reply, call) => {
      const a = authed(req, reply, call, 'user_accounts:read');
      if (!a) return reply;
      const f = a.fields;
      return reply.send({
        account_type: str(f.account_type, 'BUSINESS'),
        id: a.id,
        username: a.username,
        profile_image: a.avatarUrl,
        website_url: str(f.website_url),
        business_name: str(f.business_name),
        about: str(f.about),
        board_count: assetsOf(a, 'board').length,
        pin_count: f.pin_count ?? 0,
        follower_count: f.follower_count ?? 0,
        following_count: f.following_count ?? 0,
        monthly_views: f.monthly_views ?? 0,
      });
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/v5/boards',
    ops: ['pages'],
    surface: 'api',
    handler: (req, reply, call) => {
      const a = authed(req, reply, call, 'boards:read');
      if (!a) return reply;
      const q = queryParams(req);
      const size = Number(q.page_size ?? 25);
      if (!Number.isInteger(size) || size < 1 || size > 250) {
        return sendAnswer(
          reply,
          pinError(400, 1, `Invalid page_size: ${q.page_size ?? ''}. Must be between 1 and 250.`),
        );
      }
      const privacy = q.privacy ?? 'ALL';
      const offset = q.bookmark ? Number(Buffer.from(q.bookmark, 'base64url').toString()) || 0 : 0;
      const boards = assetsOf(a, 'board').filter((b) => privacy === 'ALL' || b.fields.privacy === privacy);
      const items: JsonObject[] = boards.slice(offset, offset + size).map((b) => ({
        id: b.id,
        created_at: str(b.fields.created_at),
        board_pins_modified_at: str(b.fields.created_at),
        name: b.name,
        description: str(b.fields.description),
        collaborator_count: 0,
        pin_count: b.fields.pin_count ?? 0,
        follower_count: b.fields.follower_count ?? 0,
        media: { image_cover_url: null, pin_thumbnail_urls: [] },
        owner: { username: a.username },
        privacy: str(b.fields.privacy, 'PUBLIC'),
      }));
      const next = offset + size < boards.length ? Buffer.from(String(offset + size)).toString('base64url') : null;
      return reply.send({ items, bookmark: next });
    },
  });
}

// GET /v2/user/info/?fields=… — each field is gated by the scope that grants it.
import { bearerToken, queryParams } from '../core/http.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Simulator } from '../core/route.ts';
import { checkToken } from '../core/tokens.ts';
import type { AccountRecord, JsonObject, JsonValue } from '../core/types.ts';
import { apiFail, ok } from './errors.ts';

const FIELD_SCOPES: Record<string, string> = {
  open_id: 'user.info.basic',
  union_id: 'user.info.basic',
  avatar_url: 'user.info.basic',
  avatar_url_100: 'user.info.basic',
  avatar_large_url: 'user.info.basic',
  display_name: 'user.info.basic',
  bio_description: 'user.info.profile',
  profile_deep_link: 'user.info.profile',
  is_verified: 'user.info.profile',
  username: 'user.info.profile',
  follower_count: 'user.info.stats',
  following_count: 'user.info.stats',
  likes_count: 'user.info.stats',
  video_count: 'user.info.stats',
};

function fieldValue(a: AccountRecord, field: string): JsonValue {
  switch (field) {
    case 'open_id':
      return a.id;
    case 'avatar_url':
    case 'avatar_url_100':
    case 'avatar_large_url':
      return a.avatarUrl;
    case 'display_name':
      return a.name;
    case 'username':
      return a.username;
    default:
      return a.fields[field] ?? '';
  }
}

export function registerTikTokUser(sim: Simulator): void {
  addRoute(sim, {
    method: 'GET',
    url: '/v2/user/info/',
    ops: ['profile'],
    surface: 'api',
    handler: (req, reply, call) => {
      const now = call.ctx.nowMs();
      const checked = checkToken(call, bearerToken(req), ['access']);
      if (!checked.ok) {
        return sendAnswer(
          reply,
          apiFail(401, 'access_token_invalid', 'The access token is invalid or not found in the request.', now),
        );
      }
      const fields = (queryParams(req).fields ?? '')
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean);
      if (fields.length === 0)
        return sendAnswer(reply, apiFail(400, 'invalid_params', 'The fields parameter is required.', now));
      const unknown = fields.find((f) => !(f in FIELD_SCOPES));
      if (unknown) return sendAnswer(reply, apiFail(400, 'invalid_params', `Invalid field: ${unknown}.`, now));
      const missing = fields.find((f) => !checked.token.scopes.includes(FIELD_SCOPES[f] ?? ''));
      if (missing) {
        return sendAnswer(
          reply,
          apiFail(
            401,
            'scope_permission_missed',
            `The field ${missing} requires the ${FIELD_SCOPES[missing]} scope, which the user did not grant.`,
            now,
          ),
        );
      }
      const account = call.slice.accounts.get(checked.token.accountId);
      if (!account)
        return sendAnswer(
          reply,
          apiFail(401, 'access_token_invalid', 'The access token is invalid or not found in the request.', now),
        );
      const user: JsonObject = {};
      for (const f of fields) user[f] = fieldValue(account, f);
      return reply.send(ok({ user }, now));
    },
  });
}

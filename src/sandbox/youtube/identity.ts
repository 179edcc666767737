// Google identity reads: oauth2.googleapis.com/tokeninfo and www.googleapis.com/oauth2/v3/userinfo.
import { bearerToken, queryParams } from '../core/http.ts';
import { jwks } from '../core/id-token.ts';
import { oauthError } from '../core/oauth.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Simulator } from '../core/route.ts';
import { checkToken } from '../core/tokens.ts';
import type { JsonObject } from '../core/types.ts';

const hasEmail = (scopes: string[]) => scopes.some((s) => s === 'email' || s.endsWith('/userinfo.email'));
const hasProfile = (scopes: string[]) => scopes.some((s) => s === 'profile' || s.endsWith('/userinfo.profile'));

export function registerGoogleIdentity(sim: Simulator): void {
  // Keys that verify the id_tokens this simulator signs (Google's are at www.googleapis.com/oauth2/v3/certs).
  addRoute(sim, {
    method: 'GET',
    url: '/oauth2/v3/certs',
    ops: [],
    surface: 'api',
    handler: async (_req, reply, call) => reply.send(await jwks(call.ctx)),
  });

  addRoute(sim, {
    method: 'GET',
    url: '/tokeninfo',
    ops: ['profile'],
    surface: 'oauth',
    handler: (req, reply, call) => {
      const q = queryParams(req);
      const checked = checkToken(call, q.access_token, ['access']);
      if (!checked.ok) return sendAnswer(reply, oauthError(400, 'invalid_token', 'Invalid Value'));
      const t = checked.token;
      const account = call.slice.accounts.get(t.accountId);
      const exp = Math.floor((t.expiresAt ?? call.ctx.nowMs()) / 1000);
      const body: JsonObject = {
        azp: t.clientId ?? '',
        aud: t.clientId ?? '',
        sub: t.accountId,
        scope: t.scopes.join(' '),
        exp: String(exp),
        expires_in: String(Math.max(0, exp - Math.floor(call.ctx.nowMs() / 1000))),
        access_type: call.slice.grants.get(t.grantId)?.refreshIssued ? 'offline' : 'online',
      };
      if (account && hasEmail(t.scopes)) Object.assign(body, { email: account.email, email_verified: 'true' });
      return reply.send(body);
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/oauth2/v3/userinfo',
    ops: ['profile'],
    surface: 'oauth',
    handler: (req, reply, call) => {
      const checked = checkToken(call, bearerToken(req), ['access']);
      if (!checked.ok) {
        const answer = oauthError(401, 'invalid_request', 'Invalid Credentials');
        answer.headers = { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' };
        return sendAnswer(reply, answer);
      }
      const account = call.slice.accounts.get(checked.token.accountId);
      if (!account) return sendAnswer(reply, oauthError(401, 'invalid_request', 'Invalid Credentials'));
      const body: JsonObject = { sub: account.id };
      if (hasProfile(checked.token.scopes)) {
        Object.assign(body, {
          name: account.name,
          given_name: account.fields.given_name ?? '',
          family_name: account.fields.family_name ?? '',
          picture: account.avatarUrl,
          locale: 'en',
        });
      }
      if (hasEmail(checked.token.scopes)) Object.assign(body, { email: account.email, email_verified: true });
      return reply.send(body);
    },
  });
}

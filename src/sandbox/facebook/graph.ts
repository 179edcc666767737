// graph.facebook.com reads used by login flows: /me, /me/accounts (with Page tokens), /me/permissions,
// /{node-id} (including published posts, photos and videos), /debug_token, and DELETE /me/permissions.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SANDBOX_APPS } from '../apps.ts';
import {
  graphAuth,
  graphError,
  graphToken,
  missingPermission,
  project,
  requestedFields,
  sendProjected,
  unsupportedGet,
} from '../core/graph.ts';
import { queryParams, sendJson } from '../core/http.ts';
import { projectWithId } from '../core/meta-publish.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, Simulator } from '../core/route.ts';
import { checkToken, revokeGrant } from '../core/tokens.ts';
import { nodeFor, pageNode, pagesList, permissions, userNode } from './nodes.ts';
import { isPublishedObject, publishedNode } from './objects.ts';
import { versionOk } from './version.ts';
import type { Viewer } from './nodes.ts';

const app = SANDBOX_APPS.facebook;
const TOKEN_KINDS = ['short', 'long', 'page'];

function viewer(req: FastifyRequest, reply: FastifyReply, call: Call, aboutMe: boolean): Viewer | null {
  if (!versionOk(req, reply)) return null;
  const token = graphAuth(call, req, reply, { kinds: TOKEN_KINDS, appId: app.clientId, aboutMe });
  if (!token) return null;
  const account = call.slice.accounts.get(token.accountId);
  if (!account) {
    sendAnswer(
      reply,
      graphError(400, { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 }),
    );
    return null;
  }
  return { call, token, account };
}

function meNode(v: Viewer) {
  const page = v.token.kind === 'page' ? v.account.assets.find((a) => a.id === v.token.assetId) : undefined;
  return page ? pageNode(v, page) : userNode(v);
}

function accounts(req: FastifyRequest, reply: FastifyReply, v: Viewer): FastifyReply {
  if (v.token.kind === 'page') {
    return sendAnswer(
      reply,
      graphError(400, {
        message: '(#100) Tried accessing nonexisting field (accounts) on node type (Page)',
        code: 100,
      }),
    );
  }
  if (!v.token.scopes.includes('pages_show_list')) return sendAnswer(reply, missingPermission('pages_show_list'));
  return sendProjected(reply, () =>
    pagesList(v, { name: 'accounts', args: {}, sub: requestedFields(req) }, queryParams(req).limit),
  );
}

function deauthorize(reply: FastifyReply, v: Viewer): FastifyReply {
  revokeGrant(v.call.ctx, v.call.slice, v.token.grantId);
  return sendJson(reply, 200, { success: true });
}

function isSelf(req: FastifyRequest, v: Viewer): boolean {
  const id = (req.params as { id?: string }).id;
  return id === undefined || id === 'me' || id === v.account.id;
}

export function registerFacebookGraph(sim: Simulator): void {
  addRoute(sim, {
    method: 'GET',
    url: '/:version/me',
    ops: ['profile'],
    surface: 'api',
    handler: (req, reply, call) => {
      const v = viewer(req, reply, call, true);
      return v && sendProjected(reply, () => project(meNode(v), requestedFields(req)));
    },
  });

  for (const url of ['/:version/me/accounts', '/:version/:id/accounts']) {
    addRoute(sim, {
      method: 'GET',
      url,
      ops: ['pages'],
      surface: 'api',
      handler: (req, reply, call) => {
        const v = viewer(req, reply, call, true);
        if (!v) return reply;
        if (!isSelf(req, v) && v.token.kind !== 'page')
          return sendAnswer(reply, unsupportedGet(String((req.params as { id?: string }).id)));
        return accounts(req, reply, v);
      },
    });
  }

  for (const url of ['/:version/me/permissions', '/:version/:id/permissions']) {
    addRoute(sim, {
      method: 'GET',
      url,
      ops: ['profile'],
      surface: 'api',
      handler: (req, reply, call) => {
        const v = viewer(req, reply, call, true);
        if (!v) return reply;
        if (!isSelf(req, v)) return sendAnswer(reply, unsupportedGet(String((req.params as { id?: string }).id)));
        return sendJson(reply, 200, { data: permissions(v.token) });
      },
    });
    addRoute(sim, {
      method: 'DELETE',
      url,
      ops: ['revoke'],
      surface: 'api',
      handler: (req, reply, call) => {
        const v = viewer(req, reply, call, true);
        if (!v) return reply;
        if (!isSelf(req, v))
          return sendAnswer(reply, unsupportedGet(String((req.params as { id?: string }).id), 'delete'));
        return deauthorize(reply, v);
      },
    });
  }

  addRoute(sim, {
    method: 'GET',
    url: '/:version/debug_token',
    ops: ['profile'],
    surface: 'api',
    handler: (req, reply, call) => {
      if (!versionOk(req, reply)) return reply;
      const appToken = graphToken(req);
      if (appToken !== `${app.clientId}|${app.clientSecret}` && !call.slice.tokens.has(appToken ?? '')) {
        return sendAnswer(
          reply,
          graphError(400, { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 }),
        );
      }
      const input = queryParams(req).input_token;
      if (!input)
        return sendAnswer(
          reply,
          graphError(400, { message: '(#100) The parameter input_token is required', code: 100 }),
        );
      const checked = checkToken(call, input, TOKEN_KINDS);
      const record = checked.ok ? checked.token : checked.token;
      if (!record) {
        return sendJson(reply, 200, {
          data: { error: { code: 190, message: 'Invalid OAuth access token.' }, is_valid: false, scopes: [] },
        });
      }
      const grant = call.slice.grants.get(record.grantId);
      const data: Record<string, unknown> = {
        app_id: app.clientId,
        type: record.kind === 'page' ? 'PAGE' : 'USER',
        application: 'Herald (sandbox)',
        data_access_expires_at: Math.floor(((grant?.createdAt ?? record.issuedAt) + 90 * 86_400_000) / 1000),
        expires_at: record.expiresAt === null ? 0 : Math.floor(record.expiresAt / 1000),
        is_valid: checked.ok,
        issued_at: Math.floor(record.issuedAt / 1000),
        scopes: record.scopes,
        granular_scopes: record.scopes.map((scope) => ({ scope })),
        user_id: record.accountId,
      };
      if (record.kind === 'page') data.profile_id = record.assetId;
      if (!checked.ok)
        data.error = {
          code: 190,
          subcode: checked.problem === 'expired' ? 463 : 458,
          message: `Token is ${checked.problem}`,
        };
      return sendJson(reply, 200, { data });
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/:version/:id',
    ops: ['profile', 'status'],
    // Reads of posts, photos and videos are publishing status / reconciliation reads; anything else is a profile read.
    opsFor: (req) =>
      isPublishedObject(sim.ctx.store.slices.facebook, (req.params as { id: string }).id) ? ['status'] : ['profile'],
    surface: 'api',
    handler: (req, reply, call) => {
      const v = viewer(req, reply, call, false);
      if (!v) return reply;
      const id = (req.params as { id: string }).id;
      const published = publishedNode(v, id);
      if (published) return sendProjected(reply, () => projectWithId(published, requestedFields(req), id));
      const node = nodeFor(v, id);
      if (!node) return sendAnswer(reply, unsupportedGet(id));
      if (node.typeName === 'IGUser' && !v.token.scopes.includes('instagram_basic')) {
        return sendAnswer(reply, missingPermission('instagram_basic'));
      }
      return sendProjected(reply, () => project(node, requestedFields(req)));
    },
  });
}

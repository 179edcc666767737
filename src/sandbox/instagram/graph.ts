// graph.instagram.com reads: the profile, and the containers and media that publishing created. The version prefix
// is mandatory there; unversioned calls are refused.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SANDBOX_APPS } from '../apps.ts';
import { str } from '../core/accounts.ts';
import {
  graphAuth,
  graphError,
  missingPermission,
  project,
  requestedFields,
  sendProjected,
  unsupportedGet,
} from '../core/graph.ts';
import type { NodeType } from '../core/graph.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, Simulator } from '../core/route.ts';
import { projectWithId } from '../core/meta-publish.ts';
import type { AccountRecord } from '../core/types.ts';
import { publishingNode } from './publish.ts';

function userNode(a: AccountRecord): NodeType {
  const f = a.fields;
  return {
    typeName: 'User',
    defaults: ['id'],
    fields: {
      id: () => a.id,
      user_id: () => str(f.user_id),
      username: () => a.username,
      name: () => a.name,
      account_type: () => str(f.account_type, 'BUSINESS'),
      profile_picture_url: () => a.avatarUrl,
      biography: () => str(f.biography),
      website: () => str(f.website),
      followers_count: () => f.followers_count ?? 0,
      follows_count: () => f.follows_count ?? 0,
      media_count: () => f.media_count ?? 0,
    },
  };
}

function read(req: FastifyRequest, reply: FastifyReply, call: Call, id: string) {
  const version = (req.params as { version?: string }).version ?? '';
  if (!/^v\d+\.\d+$/.test(version)) {
    const path = new URL(req.url, 'http://x').pathname;
    return sendAnswer(reply, graphError(400, { message: `Unknown path components: ${path}`, code: 2500 }));
  }
  const token = graphAuth(call, req, reply, {
    kinds: ['short', 'long'],
    appId: SANDBOX_APPS.instagram.clientId,
    aboutMe: id === 'me',
  });
  if (!token) return reply;
  const account = call.slice.accounts.get(token.accountId);
  const published = account && id !== 'me' ? publishingNode(call, account.id, id) : null;
  if (published) {
    const allowed = ['instagram_business_basic', 'instagram_business_content_publish'].some((s) =>
      token.scopes.includes(s),
    );
    if (!allowed) return sendAnswer(reply, missingPermission('instagram_business_basic'));
    return sendProjected(reply, () => projectWithId(published, requestedFields(req), id));
  }
  if (!account || (id !== 'me' && id !== account.id && id !== account.fields.user_id))
    return sendAnswer(reply, unsupportedGet(id));
  if (!token.scopes.includes('instagram_business_basic'))
    return sendAnswer(reply, missingPermission('instagram_business_basic'));
  return sendProjected(reply, () => project(userNode(account), requestedFields(req)));
}

export function registerInstagramGraph(sim: Simulator): void {
  addRoute(sim, {
    method: 'GET',
    url: '/me',
    ops: ['profile'],
    surface: 'api',
    handler: (_req, reply) =>
      sendAnswer(
        reply,
        graphError(400, { message: 'Unsupported request - method type: get', type: 'IGApiException', code: 100 }),
      ),
  });
  addRoute(sim, {
    method: 'GET',
    url: '/:version/me',
    ops: ['profile'],
    surface: 'api',
    handler: (req, reply, call) => read(req, reply, call, 'me'),
  });
  addRoute(sim, {
    method: 'GET',
    url: '/:version/:id',
    ops: ['profile', 'status'],
    // Container status polls and media reads are publishing status calls; the rest are profile reads.
    opsFor: (req) => {
      const { id } = req.params as { id: string };
      const slice = sim.ctx.store.slices.instagram;
      return slice.containers.has(id) || slice.posts.has(id) ? ['status'] : ['profile'];
    },
    surface: 'api',
    handler: (req, reply, call) => read(req, reply, call, (req.params as { id: string }).id),
  });
}

// graph.threads.net/v1.0 reads: the profile (/me and the user's own id), and the containers and posts publishing made.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SANDBOX_APPS } from '../apps.ts';
import {
  graphAuth,
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
  return {
    typeName: 'ThreadsUser',
    defaults: ['id'],
    fields: {
      id: () => a.id,
      username: () => a.username,
      name: () => a.name,
      threads_profile_picture_url: () => a.avatarUrl,
      threads_biography: () => a.fields.threads_biography ?? '',
      is_verified: () => a.fields.is_verified ?? false,
    },
  };
}

function read(req: FastifyRequest, reply: FastifyReply, call: Call, id: string) {
  const token = graphAuth(call, req, reply, {
    kinds: ['short', 'long'],
    appId: SANDBOX_APPS.threads.clientId,
    aboutMe: id === 'me',
  });
  if (!token) return reply;
  const account = call.slice.accounts.get(token.accountId);
  const published = account && id !== 'me' ? publishingNode(call, account.id, id) : null;
  if (published) {
    if (!token.scopes.includes('threads_basic')) return sendAnswer(reply, missingPermission('threads_basic'));
    return sendProjected(reply, () => projectWithId(published, requestedFields(req), id));
  }
  if (!account || (id !== 'me' && id !== account.id)) return sendAnswer(reply, unsupportedGet(id));
  if (!token.scopes.includes('threads_basic')) return sendAnswer(reply, missingPermission('threads_basic'));
  return sendProjected(reply, () => project(userNode(account), requestedFields(req)));
}

export function registerThreadsGraph(sim: Simulator): void {
  addRoute(sim, {
    method: 'GET',
    url: '/v1.0/me',
    ops: ['profile'],
    surface: 'api',
    handler: (req, reply, call) => read(req, reply, call, 'me'),
  });
  addRoute(sim, {
    method: 'GET',
    url: '/v1.0/:id',
    ops: ['profile', 'status'],
    // Container status polls and post reads are publishing status calls; the rest are profile reads.
    opsFor: (req) => {
      const { id } = req.params as { id: string };
      const slice = sim.ctx.store.slices.threads;
      return slice.containers.has(id) || slice.posts.has(id) ? ['status'] : ['profile'];
    },
    surface: 'api',
    handler: (req, reply, call) => read(req, reply, call, (req.params as { id: string }).id),
  });
}

// graph.threads.net/v1.0 profile reads (/me and the user's own id).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SANDBOX_APPS } from '../apps.ts';
import { graphAuth, missingPermission, project, requestedFields, sendProjected, unsupportedGet } from '../core/graph.ts';
import type { NodeType } from '../core/graph.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, Simulator } from '../core/route.ts';
import type { AccountRecord } from '../core/types.ts';

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
  const token = graphAuth(call, req, reply, { kinds: ['short', 'long'], appId: SANDBOX_APPS.threads.clientId, aboutMe: id === 'me' });
  if (!token) return reply;
  const account = call.slice.accounts.get(token.accountId);
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
    ops: ['profile'],
    surface: 'api',
    handler: (req, reply, call) => read(req, reply, call, (req.params as { id: string }).id),
  });
}


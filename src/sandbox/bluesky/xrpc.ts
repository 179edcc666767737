// XRPC endpoints of the simulated PDS (plus the public AppView's getProfile) and the PLC directory lookup.
import type { FastifyRequest } from 'fastify';
import { bearerToken, queryParams, sendJson } from '../core/http.ts';
import { avatarUrl } from '../core/oauth.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Simulator } from '../core/route.ts';
import { revokeToken, rotate } from '../core/tokens.ts';
import type { AccountRecord } from '../core/types.ts';
import { accountForHandle, accountForIdentifier, didDocument } from './account.ts';
import { commenterIdentity } from './engagement.ts';
import { sessionError, xrpcError } from './errors.ts';
import { checkSession, mintSession, REFRESH_GRACE_MS, REFRESH_KIND, viewer } from './session.ts';

const APP_PASSWORD = /^[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$/;
const BAD_LOGIN = () => xrpcError(401, 'AuthenticationRequired', 'Invalid identifier or password');

const KNOWN: Record<string, 'GET' | 'POST'> = {
  'com.atproto.identity.resolveHandle': 'GET',
  'com.atproto.server.createSession': 'POST',
  'com.atproto.server.refreshSession': 'POST',
  'com.atproto.server.getSession': 'GET',
  'com.atproto.server.deleteSession': 'POST',
  'app.bsky.actor.getProfile': 'GET',
  'com.atproto.server.getServiceAuth': 'GET',
  'com.atproto.repo.uploadBlob': 'POST',
  'com.atproto.repo.createRecord': 'POST',
  'com.atproto.repo.deleteRecord': 'POST',
  'com.atproto.repo.getRecord': 'GET',
  'com.atproto.repo.listRecords': 'GET',
  'app.bsky.feed.getAuthorFeed': 'GET',
  'app.bsky.feed.getPosts': 'GET',
  'app.bsky.feed.getPostThread': 'GET',
  'app.bsky.video.uploadVideo': 'POST',
  'app.bsky.video.getJobStatus': 'GET',
  'app.bsky.video.getUploadLimits': 'GET',
};

function sessionBody(sim: Simulator, account: AccountRecord) {
  return {
    handle: account.username,
    did: account.id,
    didDoc: didDocument(account, sim.ctx.base('bluesky')),
    email: account.email,
    emailConfirmed: true,
    emailAuthFactor: false,
    active: true,
  };
}

export function inputObject(req: FastifyRequest): Record<string, unknown> | null {
  const body = req.body;
  return body && typeof body === 'object' && !Buffer.isBuffer(body) ? (body as Record<string, unknown>) : null;
}

export function registerXrpc(sim: Simulator): void {
  const avatar = (id: string) => avatarUrl(sim.ctx, 'bluesky', id);
  const xrpc = (nsid: string) => `/xrpc/${nsid}`;

  addRoute(sim, {
    method: 'GET',
    url: xrpc('com.atproto.identity.resolveHandle'),
    ops: ['resolve'],
    surface: 'api',
    handler: (req, reply, call) => {
      const handle = queryParams(req).handle;
      if (!handle)
        return sendAnswer(reply, xrpcError(400, 'InvalidRequest', 'Error: Params must have the property "handle"'));
      const account = accountForHandle(call.ctx, call.slice, handle, avatar);
      if (!account) return sendAnswer(reply, xrpcError(400, 'InvalidRequest', 'Unable to resolve handle'));
      return reply.send({ did: account.id });
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: xrpc('com.atproto.server.createSession'),
    ops: ['token'],
    surface: 'api',
    handler: async (req, reply, call) => {
      const input = inputObject(req);
      if (!input)
        return sendAnswer(
          reply,
          xrpcError(400, 'InvalidRequest', 'Request encoding (Content-Type) required but not provided'),
        );
      for (const key of ['identifier', 'password']) {
        if (typeof input[key] !== 'string') {
          return sendAnswer(reply, xrpcError(400, 'InvalidRequest', `Input must have the property "${key}"`));
        }
      }
      const account = accountForIdentifier(call.ctx, call.slice, String(input.identifier), avatar);
      if (!account || !APP_PASSWORD.test(String(input.password))) return sendAnswer(reply, BAD_LOGIN());
      const session = await mintSession(call, account);
      return reply.send({
        accessJwt: session.access.token,
        refreshJwt: session.refresh.token,
        ...sessionBody(sim, account),
      });
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: xrpc('com.atproto.server.refreshSession'),
    ops: ['refresh', 'token'],
    surface: 'api',
    handler: async (req, reply, call) => {
      const checked = checkSession(call, bearerToken(req), REFRESH_KIND);
      if (!checked.ok) return sendAnswer(reply, sessionError(checked.problem));
      const old = checked.token;
      const account = call.slice.accounts.get(old.accountId);
      if (!account) return sendAnswer(reply, sessionError('invalid'));
      if (old.rotatedAt !== null && call.ctx.nowMs() - old.rotatedAt > REFRESH_GRACE_MS) {
        return sendAnswer(reply, sessionError('revoked'));
      }
      const session = await mintSession(call, account, old.grantId);
      // Within the grace period a replayed refresh token yields the same successor, so racing clients converge.
      const successor = old.replacedBy ? call.slice.tokens.get(old.replacedBy) : undefined;
      if (successor) call.slice.tokens.delete(session.refresh.token);
      else rotate(call.ctx, old, session.refresh);
      const refreshJwt = successor?.token ?? session.refresh.token;
      const { handle, did, didDoc, active } = sessionBody(sim, account);
      return reply.send({ accessJwt: session.access.token, refreshJwt, handle, did, didDoc, active });
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: xrpc('com.atproto.server.getSession'),
    ops: ['profile'],
    surface: 'api',
    handler: (req, reply, call) => {
      const account = viewer(req, reply, call, false);
      return account ? reply.send(sessionBody(sim, account)) : reply;
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: xrpc('com.atproto.server.deleteSession'),
    ops: ['revoke'],
    surface: 'api',
    handler: (req, reply, call) => {
      const checked = checkSession(call, bearerToken(req), REFRESH_KIND);
      if (!checked.ok) return sendAnswer(reply, sessionError(checked.problem));
      revokeToken(call.ctx, checked.token);
      return reply.code(200).send();
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: xrpc('app.bsky.actor.getProfile'),
    ops: ['profile'],
    surface: 'api',
    handler: (req, reply, call) => {
      if (viewer(req, reply, call, true) === null) return reply;
      const actor = queryParams(req).actor;
      if (!actor)
        return sendAnswer(reply, xrpcError(400, 'InvalidRequest', 'Error: Params must have the property "actor"'));
      const a = actor.startsWith('did:')
        ? call.slice.accounts.get(actor)
        : accountForHandle(call.ctx, call.slice, actor, avatar);
      if (!a) return sendAnswer(reply, xrpcError(400, 'InvalidRequest', 'Profile not found'));
      return reply.send({
        did: a.id,
        handle: a.username,
        displayName: a.name,
        description: String(a.fields.description ?? ''),
        avatar: a.avatarUrl,
        followersCount: a.fields.followersCount ?? 0,
        followsCount: a.fields.followsCount ?? 0,
        postsCount: [...call.slice.posts.values()].filter((p) => p.accountId === a.id).length,
        associated: { lists: 0, feedgens: 0, starterPacks: 0, labeler: false },
        createdAt: a.createdAt,
        indexedAt: a.createdAt,
        labels: [],
        viewer: { muted: false, blockedBy: false },
      });
    },
  });

  addRoute(sim, {
    method: ['GET', 'POST'],
    url: '/xrpc/:nsid',
    ops: [],
    surface: 'api',
    handler: (req, reply) => {
      const nsid = (req.params as { nsid: string }).nsid;
      const expected = KNOWN[nsid];
      if (expected && expected !== req.method) {
        return sendAnswer(
          reply,
          xrpcError(400, 'InvalidRequest', `Incorrect HTTP method (${req.method}) expected ${expected}`),
        );
      }
      return sendAnswer(reply, xrpcError(501, 'MethodNotImplemented', 'Method Not Implemented'));
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/plc/:did',
    ops: ['resolve'],
    surface: 'api',
    handler: (req, reply, call) => {
      const did = (req.params as { did: string }).did;
      // DIDs exist once their handle has been used (resolveHandle, createSession, getProfile): the DID is a hash.
      const account = call.slice.accounts.get(did) ?? commenterIdentity(call, did);
      if (!account) return sendJson(reply, 404, { message: `DID not registered: ${did}` });
      reply.header('content-type', 'application/did+ld+json; charset=utf-8');
      return reply.send(JSON.stringify(didDocument(account, call.ctx.base('bluesky'))));
    },
  });
}

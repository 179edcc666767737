// Who a graph.threads.net publishing call acts for, Threads' error envelope (THApiException) and container expiry.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SANDBOX_APPS } from '../apps.ts';
import { graphAuth, graphError, missingPermission, unsupportedGet } from '../core/graph.ts';
import { DAY_MS } from '../core/meta-publish.ts';
import { current } from '../core/processing.ts';
import { sendAnswer } from '../core/route.ts';
import type { Call, ErrorAnswer } from '../core/route.ts';
import type { AccountRecord, ObjectRecord, TokenRecord } from '../core/types.ts';

export interface ThreadsActor {
  token: TokenRecord;
  account: AccountRecord;
}

export function threadsError(
  message: string,
  code = 100,
  extra: { subcode?: number; userTitle?: string; userMsg?: string } = {},
): ErrorAnswer {
  return graphError(400, { message, type: 'THApiException', code, ...extra });
}

/** A valid Threads token acting for its own profile (`/me` or its id) with the needed permissions. */
export function threadsActor(
  req: FastifyRequest,
  reply: FastifyReply,
  call: Call,
  scopes: string[],
  method: 'get' | 'post' | 'delete',
): ThreadsActor | null {
  const token = graphAuth(call, req, reply, {
    kinds: ['short', 'long'],
    appId: SANDBOX_APPS.threads.clientId,
    aboutMe: false,
  });
  if (!token) return null;
  const account = call.slice.accounts.get(token.accountId);
  const id = (req.params as { id: string }).id;
  if (!account || (method !== 'delete' && id !== 'me' && id !== account.id)) {
    sendAnswer(reply, unsupportedGet(id, method));
    return null;
  }
  const missing = ['threads_basic', ...scopes].find((s) => !token.scopes.includes(s));
  if (missing) {
    sendAnswer(reply, missingPermission(missing));
    return null;
  }
  return { token, account };
}

/** A container with due processing applied and its 24-hour expiry checked. */
export function containerNow(call: Call, container: ObjectRecord): ObjectRecord {
  current(call.ctx, container);
  const open = container.status === 'IN_PROGRESS' || container.status === 'FINISHED';
  if (open && call.ctx.nowMs() - Date.parse(container.createdAt) >= DAY_MS) {
    delete container.scheduled;
    container.status = 'EXPIRED';
  }
  return container;
}

export const notReady = (): ErrorAnswer =>
  threadsError('Media Not Found', 24, {
    subcode: 4279009,
    userTitle: 'Media Not Found',
    userMsg: 'The requested resource does not exist.',
  });

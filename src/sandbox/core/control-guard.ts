// Who may use the sandbox's control routes (`/_state` shows every simulated token; `_seed`, `_faults` and `_config`
// change what the simulators answer). By default only clients on this machine: the connection's own address must be
// a loopback one, whatever X-Forwarded-For says and whoever is trusted as a proxy, and a request a proxy forwarded
// (one carrying X-Forwarded-For or Forwarded) is refused even from loopback, so a reverse proxy on the same host
// does not open them to the world.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendJson } from './http.ts';

export type ControlAccess = 'loopback' | 'any';

const LOOPBACK = /^(?:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/** Is the request from this machine, directly (the socket's address, not a forwarded one)? */
export function fromLoopback(req: FastifyRequest): boolean {
  const address = req.socket.remoteAddress ?? '';
  return LOOPBACK.test(address) && req.headers['x-forwarded-for'] === undefined && req.headers.forwarded === undefined;
}

/** Refuses the routes registered in `scope` to clients `access` does not admit. */
export function guardControlRoutes(scope: FastifyInstance, access: ControlAccess): void {
  if (access === 'any') return;
  scope.addHook('onRequest', async (req, reply) => {
    if (fromLoopback(req)) return;
    return sendJson(reply, 403, {
      error: 'forbidden',
      message:
        "The sandbox's control routes answer clients on the server's own machine only; HERALD_SANDBOX_CONTROL=any opens them to every client.",
    });
  });
}

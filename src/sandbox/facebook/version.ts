// Graph pins a version in the first path segment; anything else is an unknown path.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { graphError } from '../core/graph.ts';
import { sendAnswer } from '../core/route.ts';

export function versionOk(req: FastifyRequest, reply: FastifyReply): boolean {
  const version = (req.params as { version?: string }).version ?? '';
  if (/^v\d+\.\d+$/.test(version)) return true;
  const path = new URL(req.url, 'http://x').pathname;
  sendAnswer(reply, graphError(400, { message: `Unknown path components: ${path}`, code: 2500 }));
  return false;
}

// Serves disk-stored media at /storage/<key>: public (networks fetch media by URL; keys carry 128
// random bits), with byte ranges and conditional requests. Only keys of live media records are served.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app-context.ts';
import {
  isValidKey,
  ObjectNotFoundError,
  RangeNotSatisfiableError,
  type ObjectInfo,
} from '../../../media/storage/index.ts';

/** Objects never change under a key, but a deleted one should not outlive its record in caches for long. */
const CACHE_CONTROL = 'public, max-age=3600';

/** A single `bytes=` range resolved against the size; null to ignore the header, 'unsatisfiable' for 416. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, other units or bad syntax: serving the whole object is always allowed.
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  if (m[2] !== '' && Number(m[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1) };
}

function etagMatches(header: string | undefined, etag: string | undefined): boolean {
  if (!header || !etag) return false;
  if (header.trim() === '*') return true;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => bare(t) === bare(etag));
}

const notFound = (reply: FastifyReply) => {
  for (const h of ['content-length', 'content-range', 'etag', 'accept-ranges']) reply.removeHeader(h);
  return reply
    .code(404)
    .header('cache-control', 'no-store')
    .header('content-type', 'application/json; charset=utf-8')
    .send({ detail: 'Not Found' });
};

export async function storageRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const storage = ctx.media.storage;

  async function serve(req: FastifyRequest, reply: FastifyReply) {
    const key = (req.params as { '*': string })['*'];
    if (!isValidKey(key) || !(await ctx.media.isServable(key))) return notFound(reply);
    const info: ObjectInfo | null = await storage.head(key);
    if (!info) return notFound(reply);
    reply
      .header('accept-ranges', 'bytes')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', CACHE_CONTROL)
      .header('content-type', info.contentType ?? 'application/octet-stream');
    if (info.etag) reply.header('etag', info.etag);
    if (etagMatches(req.headers['if-none-match'], info.etag)) return reply.code(304).send();

    const ifRange = req.headers['if-range'];
    const rangeHeader = ifRange === undefined || (info.etag && ifRange === info.etag) ? req.headers.range : undefined;
    const range = parseRange(rangeHeader, info.size);
    if (range === 'unsatisfiable') {
      return reply
        .code(416)
        .header('content-range', `bytes */${info.size}`)
        .header('content-type', 'application/json')
        .send({ detail: 'Range Not Satisfiable' });
    }
    const length = range ? range.end - range.start + 1 : info.size;
    reply.code(range ? 206 : 200).header('content-length', String(length));
    if (range) reply.header('content-range', `bytes ${range.start}-${range.end}/${info.size}`);
    if (req.method === 'HEAD') return reply.send();
    try {
      const got = await storage.get(key, range ?? undefined);
      return reply.send(got.body);
    } catch (err) {
      // Deleted between the check and the read.
      if (err instanceof ObjectNotFoundError || err instanceof RangeNotSatisfiableError) return notFound(reply);
      throw err;
    }
  }

  app.route({
    method: ['GET', 'HEAD'],
    url: '/storage/*',
    config: { access: { kind: 'public' } },
    schema: { tags: ['media'], summary: 'Stored media files (public URLs of disk storage)', hide: true },
    handler: serve,
  });
}

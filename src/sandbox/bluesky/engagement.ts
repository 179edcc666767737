// The read side of the Bluesky simulator: the AppView's app.bsky.feed.getAuthorFeed, getPosts and getPostThread as
// the PDS proxies them (post views with likeCount / repostCount / replyCount / quoteCount, thread views with nested
// replies, in views.ts), and replies (replies.ts). A comment is another account's app.bsky.feed.post whose `reply`
// points into the thread; its id is its at:// URI in its author's repo. A reply from the connected account is a
// createRecord with `reply: {root, parent}` strong refs (repo.ts hands it here), threaded under its parent in the
// `comments` map; the refs are checked against the thread, which the PDS does not do (it stores an orphan the AppView
// never shows) — stricter on purpose.
import type { FastifyRequest } from 'fastify';
import { queryParams } from '../core/http.ts';
import { findObject, text } from '../core/objects.ts';
import { avatarUrl } from '../core/oauth.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { ErrorAnswer, Simulator } from '../core/route.ts';
import type { ObjectRecord } from '../core/types.ts';
import { accountForHandle } from './account.ts';
import { xrpcError } from './errors.ts';
import { viewer } from './session.ts';
import { POST, byUri, isObject, postView, rkeyOf, rootRefOf, threadView } from './views.ts';

export { checkReplyRefs, commenterHandle, commenterIdentity, declareBlueskyEngagement, storeReply } from './replies.ts';
export type { ReplyCheck } from './replies.ts';

const FILTERS = [
  'posts_with_replies',
  'posts_no_replies',
  'posts_with_media',
  'posts_and_author_threads',
  'posts_with_video',
];

function intParam(
  raw: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number | ErrorAnswer {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n)) return xrpcError(400, 'InvalidRequest', `Error: ${name} must be an integer`);
  if (n < min) return xrpcError(400, 'InvalidRequest', `Error: ${name} can not be less than ${min}`);
  if (n > max) return xrpcError(400, 'InvalidRequest', `Error: ${name} can not be greater than ${max}`);
  return n;
}

/** Every value of a repeated query parameter (`uris=a&uris=b`). */
function repeated(req: FastifyRequest, name: string): string[] {
  const raw = (req.query as Record<string, unknown> | undefined)?.[name];
  if (Array.isArray(raw)) return raw.filter((v): v is string => typeof v === 'string');
  return typeof raw === 'string' ? [raw] : [];
}

const feedCursor = (r: ObjectRecord): string => `${Date.parse(r.createdAt)}::${text(r.cid)}`;

/** Newest first: creation time, then record key (TIDs grow with time even when the sandbox clock stands still). */
const newestFirst = (a: ObjectRecord, b: ObjectRecord): number =>
  Date.parse(b.createdAt) - Date.parse(a.createdAt) || rkeyOf(b.id).localeCompare(rkeyOf(a.id));

export function registerEngagement(sim: Simulator): void {
  const xrpc = (nsid: string) => `/xrpc/${nsid}`;

  addRoute(sim, {
    method: 'GET',
    url: xrpc('app.bsky.feed.getAuthorFeed'),
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      if (viewer(req, reply, call, true) === null) return reply;
      const q = queryParams(req);
      if (!q.actor)
        return sendAnswer(reply, xrpcError(400, 'InvalidRequest', 'Error: Params must have the property "actor"'));
      const limit = intParam(q.limit, 'limit', 50, 1, 100);
      if (typeof limit !== 'number') return sendAnswer(reply, limit);
      const filter = q.filter ?? 'posts_with_replies';
      if (!FILTERS.includes(filter))
        return sendAnswer(
          reply,
          xrpcError(400, 'InvalidRequest', `Error: filter must be one of (${FILTERS.join('|')})`),
        );
      const actor = q.actor.startsWith('did:')
        ? call.slice.accounts.get(q.actor)
        : accountForHandle(call.ctx, call.slice, q.actor, (id) => avatarUrl(call.ctx, 'bluesky', id));
      if (!actor) return sendAnswer(reply, xrpcError(400, 'InvalidRequest', 'Profile not found'));
      const posts = [...call.slice.posts.values()]
        .filter((p) => p.accountId === actor.id && p.collection === POST)
        .map((p) => findObject(call, 'posts', p.id)!);
      const own =
        filter === 'posts_with_replies' ? [...call.slice.comments.values()].filter((c) => c.authorId === actor.id) : [];
      const hasEmbed = (r: ObjectRecord, type: string) =>
        isObject(r.record) && isObject(r.record.embed) && String(r.record.embed.$type).startsWith(type);
      const items = [...posts, ...own]
        .filter(
          (r) =>
            filter !== 'posts_with_media' ||
            hasEmbed(r, 'app.bsky.embed.images') ||
            hasEmbed(r, 'app.bsky.embed.video'),
        )
        .filter((r) => filter !== 'posts_with_video' || hasEmbed(r, 'app.bsky.embed.video'))
        .sort(newestFirst);
      const start = q.cursor ? items.findIndex((r) => feedCursor(r) === q.cursor) + 1 : 0;
      if (q.cursor && start === 0) return reply.send({ feed: [] });
      const page = items.slice(start, start + limit);
      const last = page[page.length - 1];
      const feed = page.map((r) => {
        if (r.postId === undefined) return { post: postView(call, r) };
        const root = byUri(call, text(rootRefOf(r).uri));
        const parent = typeof r.parentId === 'string' ? call.slice.comments.get(r.parentId) : root;
        return {
          post: postView(call, r),
          reply: {
            root: root
              ? { $type: 'app.bsky.feed.defs#postView', ...postView(call, root) }
              : { $type: 'app.bsky.feed.defs#notFoundPost', uri: text(rootRefOf(r).uri), notFound: true },
            parent: parent
              ? { $type: 'app.bsky.feed.defs#postView', ...postView(call, parent) }
              : { $type: 'app.bsky.feed.defs#notFoundPost', uri: '', notFound: true },
          },
        };
      });
      return reply.send({ feed, ...(last && start + limit < items.length ? { cursor: feedCursor(last) } : {}) });
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: xrpc('app.bsky.feed.getPosts'),
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      if (viewer(req, reply, call, true) === null) return reply;
      const uris = repeated(req, 'uris');
      if (uris.length === 0)
        return sendAnswer(reply, xrpcError(400, 'InvalidRequest', 'Error: Params must have the property "uris"'));
      if (uris.length > 25)
        return sendAnswer(reply, xrpcError(400, 'InvalidRequest', 'Error: uris must not have more than 25 elements'));
      for (const uri of uris)
        if (!uri.startsWith('at://'))
          return sendAnswer(reply, xrpcError(400, 'InvalidRequest', `Error: uris/0 must be a valid at-uri`));
      // Posts the AppView does not have (deleted, never existed) are left out, not errors.
      const found = uris.map((u) => byUri(call, u)).filter((r): r is ObjectRecord => !!r);
      return reply.send({ posts: found.map((r) => postView(call, r)) });
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: xrpc('app.bsky.feed.getPostThread'),
    ops: ['comments'],
    surface: 'api',
    handler: (req, reply, call) => {
      if (viewer(req, reply, call, true) === null) return reply;
      const q = queryParams(req);
      if (!q.uri)
        return sendAnswer(reply, xrpcError(400, 'InvalidRequest', 'Error: Params must have the property "uri"'));
      if (!q.uri.startsWith('at://'))
        return sendAnswer(reply, xrpcError(400, 'InvalidRequest', 'Error: uri must be a valid at-uri'));
      const depth = intParam(q.depth, 'depth', 6, 0, 1000);
      if (typeof depth !== 'number') return sendAnswer(reply, depth);
      const parentHeight = intParam(q.parentHeight, 'parentHeight', 80, 0, 1000);
      if (typeof parentHeight !== 'number') return sendAnswer(reply, parentHeight);
      const found = byUri(call, q.uri);
      if (!found) return sendAnswer(reply, xrpcError(400, 'NotFound', `Post not found: ${q.uri}`));
      return reply.send({ thread: threadView(call, found, depth, parentHeight) });
    },
  });
}

export { byUri as blueskyRecordByUri };

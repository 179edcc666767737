// The read side of the Bluesky simulator: the AppView's app.bsky.feed.getAuthorFeed, getPosts and getPostThread as the
// PDS proxies them (post views with likeCount / repostCount / replyCount / quoteCount, thread views with nested
// replies), and replies. A comment is another account's app.bsky.feed.post whose `reply` points into the thread; its id
// is its at:// URI in its author's repo. A reply from the connected account is a createRecord with `reply: {root,
// parent}` strong refs (repo.ts hands it here), threaded under its parent in the `comments` map; the refs are checked
// against the thread, which the PDS does not do (it stores an orphan the AppView never shows) — stricter on purpose.
import type { FastifyRequest } from 'fastify';
import type { SandboxContext } from '../core/context.ts';
import { commentsDisabled, declareEngagement, metricsOf, putComment, repliesTo } from '../core/engagement.ts';
import type { CommentInput } from '../core/engagement.ts';
import { queryParams } from '../core/http.ts';
import { findObject, text } from '../core/objects.ts';
import { avatarUrl } from '../core/oauth.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, ErrorAnswer, Simulator } from '../core/route.ts';
import type { AccountRecord, JsonObject, ObjectRecord } from '../core/types.ts';
import { accountForHandle, didForHandle } from './account.ts';
import { cid, tid } from './cid.ts';
import { xrpcError } from './errors.ts';
import { viewer } from './session.ts';

const POST = 'app.bsky.feed.post';
const FILTERS = [
  'posts_with_replies',
  'posts_no_replies',
  'posts_with_media',
  'posts_and_author_threads',
  'posts_with_video',
];

/** Simulated commenters live on the same PDS, with handles of their own. */
export const commenterHandle = (n: number): string => `commenter-${n + 1}.sandbox`;

function isObject(value: unknown): value is JsonObject {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

const rkeyOf = (uri: string): string => uri.split('/').pop() ?? '';

/** The strong ref of a stored post or comment. */
const strongRef = (r: ObjectRecord): JsonObject => ({ uri: r.id, cid: text(r.cid) });

/** The thread root of a comment, as its record says. */
function rootRefOf(r: ObjectRecord): JsonObject {
  const record = isObject(r.record) ? r.record : {};
  const reply = isObject(record.reply) ? record.reply : null;
  return reply && isObject(reply.root) ? reply.root : strongRef(r);
}

export function declareBlueskyEngagement(ctx: SandboxContext): void {
  declareEngagement(ctx, 'bluesky', {
    userId: (n) => didForHandle(commenterHandle(n)),
    commentId: (c, _post, _parent, input: CommentInput) => `at://${input.author.id}/${POST}/${tid(c.nowMs())}`,
    extra: (c, post, parent, id, input) => {
      const record: JsonObject = {
        $type: POST,
        text: input.text,
        createdAt: c.now().toISOString(),
        reply: { root: parent ? rootRefOf(parent) : strongRef(post), parent: strongRef(parent ?? post) },
      };
      return {
        rkey: rkeyOf(id),
        cid: cid('dag-cbor', JSON.stringify(record)),
        record,
        collection: POST,
        authorHandle: handleOfDid(c, input.author.id),
      };
    },
  });
}

/** The handle of a simulated commenter's DID (commenters 1–1000), else the DID itself. */
function handleOfDid(ctx: SandboxContext, did: string): string {
  const account = ctx.store.slices.bluesky.accounts.get(did);
  if (account) return account.username;
  for (let n = 0; n < 1000; n++) if (didForHandle(commenterHandle(n)) === did) return commenterHandle(n);
  return did;
}

/** A DID document's subject for a DID only known as a commenter: handle and a stable signing key. */
export function commenterIdentity(call: Call, did: string): AccountRecord | undefined {
  const comment = [...call.slice.comments.values()].find((c) => c.authorId === did);
  if (!comment) return undefined;
  return {
    id: did,
    username: text(comment.authorHandle) || did,
    name: text(comment.authorName),
    email: '',
    avatarUrl: null,
    fields: { signingKey: `zQ3sh${cid('raw', did).slice(1, 45)}` },
    assets: [],
    userKey: did,
    createdAt: comment.createdAt,
  } as unknown as AccountRecord;
}

interface Author {
  did: string;
  handle: string;
  displayName: string;
  avatar: string | null;
  createdAt: string;
}

function authorOf(call: Call, r: ObjectRecord): Author {
  const account = call.slice.accounts.get(r.accountId);
  if (r.postId === undefined && account) {
    return {
      did: account.id,
      handle: account.username,
      displayName: account.name,
      avatar: account.avatarUrl,
      createdAt: account.createdAt,
    };
  }
  const did = text(r.authorId) || r.accountId;
  const own = call.slice.accounts.get(did);
  if (own) return { did, handle: own.username, displayName: own.name, avatar: own.avatarUrl, createdAt: own.createdAt };
  return {
    did,
    handle: text(r.authorHandle) || did,
    displayName: text(r.authorName),
    avatar: typeof r.authorAvatarUrl === 'string' ? r.authorAvatarUrl : null,
    createdAt: r.createdAt,
  };
}

/** The AppView's view of an embed: CDN URLs for images, an HLS playlist for a video. */
function embedView(did: string, embed: unknown): JsonObject | undefined {
  if (!isObject(embed)) return undefined;
  const link = (blob: unknown): string => {
    const ref = isObject(blob) && isObject(blob.ref) ? blob.ref.$link : undefined;
    return typeof ref === 'string' ? ref : '';
  };
  if (embed.$type === 'app.bsky.embed.images' && Array.isArray(embed.images)) {
    return {
      $type: 'app.bsky.embed.images#view',
      images: embed.images.filter(isObject).map((img) => ({
        thumb: `https://cdn.bsky.app/img/feed_thumbnail/plain/${did}/${link(img.image)}@jpeg`,
        fullsize: `https://cdn.bsky.app/img/feed_fullsize/plain/${did}/${link(img.image)}@jpeg`,
        alt: typeof img.alt === 'string' ? img.alt : '',
        ...(isObject(img.aspectRatio) ? { aspectRatio: img.aspectRatio } : {}),
      })),
    };
  }
  if (embed.$type === 'app.bsky.embed.video') {
    const c = link(embed.video);
    return {
      $type: 'app.bsky.embed.video#view',
      cid: c,
      playlist: `https://video.bsky.app/watch/${encodeURIComponent(did)}/${c}/playlist.m3u8`,
      thumbnail: `https://video.bsky.app/watch/${encodeURIComponent(did)}/${c}/thumbnail.jpg`,
      ...(typeof embed.alt === 'string' ? { alt: embed.alt } : {}),
      ...(isObject(embed.aspectRatio) ? { aspectRatio: embed.aspectRatio } : {}),
    };
  }
  return undefined;
}

/** app.bsky.feed.defs#postView of a stored post or comment. */
function postView(call: Call, r: ObjectRecord): JsonObject {
  const author = authorOf(call, r);
  const isPost = r.postId === undefined;
  const m = isPost
    ? metricsOf(call.slice, r)
    : {
        likes: typeof r.likeCount === 'number' ? r.likeCount : 0,
        shares: 0,
        comments: repliesTo(call.slice, r.id).length,
      };
  const record = isObject(r.record) ? r.record : { $type: POST, text: text(r.text), createdAt: r.createdAt };
  const embed = embedView(author.did, record.embed);
  return {
    uri: r.id,
    cid: text(r.cid),
    author: {
      did: author.did,
      handle: author.handle,
      displayName: author.displayName,
      ...(author.avatar ? { avatar: author.avatar } : {}),
      associated: { activitySubscription: { allowSubscriptions: 'followers' } },
      viewer: { muted: false, blockedBy: false },
      labels: [],
      createdAt: author.createdAt,
    },
    record,
    ...(embed ? { embed } : {}),
    bookmarkCount: 0,
    // The AppView counts direct replies only (replies to replies count on their parent); `_seed` may set more.
    replyCount: isPost ? Math.max(seededComments(r), repliesOfPost(call, r.id).length) : m.comments,
    repostCount: m.shares,
    likeCount: m.likes,
    quoteCount: 0,
    indexedAt: r.createdAt,
    viewer: { bookmarked: false, threadMuted: false, embeddingDisabled: false },
    labels: [],
    ...(isPost && commentsDisabled(r) ? { threadgate: threadgateView(author.did, r) } : {}),
  };
}

/**
 * Comments turned off (`_seed` comments_disabled) is what the Bluesky app writes as an app.bsky.feed.threadgate with
 * an empty `allow`: nobody may reply, except the thread's author, so the viewer's replyDisabled stays false for it.
 */
function threadgateView(did: string, post: ObjectRecord): JsonObject {
  const record = { $type: 'app.bsky.feed.threadgate', post: post.id, allow: [], createdAt: post.createdAt };
  return {
    uri: `at://${did}/app.bsky.feed.threadgate/${rkeyOf(post.id)}`,
    cid: cid('dag-cbor', JSON.stringify(record)),
    record,
    lists: [],
  };
}

const seededComments = (post: ObjectRecord): number => {
  const seeded = isObject(post.metrics) ? post.metrics.comments : undefined;
  return typeof seeded === 'number' ? seeded : 0;
};

const repliesOfPost = (call: Call, postId: string): ObjectRecord[] =>
  [...call.slice.comments.values()].filter((c) => c.postId === postId && c.parentId === null);

/** A post or a comment by its at:// URI (the DID form; a handle in the URI is resolved). */
function byUri(call: Call, uri: string): ObjectRecord | undefined {
  const m = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri);
  if (!m) return undefined;
  let did = m[1]!;
  if (!did.startsWith('did:'))
    did = accountForHandle(call.ctx, call.slice, did, (id) => avatarUrl(call.ctx, 'bluesky', id))?.id ?? did;
  const normal = `at://${did}/${m[2]!}/${m[3]!}`;
  return findObject(call, 'posts', normal) ?? findObject(call, 'comments', normal);
}

function threadView(call: Call, r: ObjectRecord, depth: number, parentHeight: number): JsonObject {
  const children = r.postId === undefined ? repliesOfPost(call, r.id) : repliesTo(call.slice, r.id);
  const parent =
    r.postId === undefined
      ? undefined
      : typeof r.parentId === 'string'
        ? call.slice.comments.get(r.parentId)
        : call.slice.posts.get(text(r.postId));
  return {
    $type: 'app.bsky.feed.defs#threadViewPost',
    post: postView(call, r),
    ...(parent && parentHeight > 0 ? { parent: threadView(call, parent, 0, parentHeight - 1) } : {}),
    // The AppView leaves `replies` out of parents and at the depth limit.
    ...(depth > 0 ? { replies: children.map((c) => threadView(call, c, depth - 1, 0)) } : {}),
  };
}

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

export interface ReplyCheck {
  post: ObjectRecord;
  parent: ObjectRecord | undefined;
}

/**
 * The thread a reply record points into, or the refusal: parent and root must be records the AppView knows, with the
 * CIDs the refs name, and root must be the parent's root (or the parent, when it is the post itself).
 */
export function checkReplyRefs(call: Call, reply: JsonObject): ReplyCheck | ErrorAnswer {
  const ref = (key: 'root' | 'parent') => (isObject(reply[key]) ? (reply[key] as JsonObject) : {});
  const parentRef = ref('parent');
  const rootRef = ref('root');
  const parent = byUri(call, text(parentRef.uri));
  const sandboxRefusal = (what: string) =>
    xrpcError(
      400,
      'InvalidRequest',
      `Invalid app.bsky.feed.post record: Record/reply/${what} (the sandbox refuses what the PDS would store as an orphan reply the AppView never threads)`,
    );
  if (!parent) return sandboxRefusal(`parent ${text(parentRef.uri)} is not a known post`);
  if (text(parentRef.cid) !== text(parent.cid))
    return sandboxRefusal(`parent/cid ${text(parentRef.cid)} is not the CID of ${parent.id}`);
  const expectedRoot = parent.postId === undefined ? strongRef(parent) : rootRefOf(parent);
  if (text(rootRef.uri) !== text(expectedRoot.uri) || text(rootRef.cid) !== text(expectedRoot.cid)) {
    return sandboxRefusal(`root must be the thread's root ${text(expectedRoot.uri)} (cid ${text(expectedRoot.cid)})`);
  }
  const post = parent.postId === undefined ? parent : call.slice.posts.get(text(parent.postId));
  if (!post) return sandboxRefusal('root post has been deleted');
  return { post, parent: parent.postId === undefined ? undefined : parent };
}

/** Stores a reply the connected account created (createRecord with `reply`), threaded under its parent. */
export function storeReply(
  call: Call,
  account: AccountRecord,
  check: ReplyCheck,
  uri: string,
  recordCid: string,
  record: JsonObject,
): ObjectRecord {
  return putComment(call.ctx, 'bluesky', check.post, check.parent, {
    text: typeof record.text === 'string' ? record.text : '',
    author: { id: account.id, name: account.name, avatarUrl: account.avatarUrl },
    fromAccount: true,
    id: uri,
    fields: { rkey: rkeyOf(uri), cid: recordCid, record, authorHandle: account.username, collection: POST },
  });
}

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

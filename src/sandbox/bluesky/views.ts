// The AppView's views in the Bluesky simulator (engagement.ts): post views with their counts, embeds and threadgates,
// thread views with nested replies, and posts or comments found by their at:// URIs.
import type { Call } from '../core/route.ts';
import { commentsDisabled, metricsOf, repliesTo } from '../core/engagement.ts';
import { findObject, text } from '../core/objects.ts';
import { avatarUrl } from '../core/oauth.ts';
import type { JsonObject, ObjectRecord } from '../core/types.ts';
import { accountForHandle } from './account.ts';
import { cid } from './cid.ts';

export const POST = 'app.bsky.feed.post';

export function isObject(value: unknown): value is JsonObject {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

export const rkeyOf = (uri: string): string => uri.split('/').pop() ?? '';

/** The strong ref of a stored post or comment. */
export const strongRef = (r: ObjectRecord): JsonObject => ({ uri: r.id, cid: text(r.cid) });

/** The thread root of a comment, as its record says. */
export function rootRefOf(r: ObjectRecord): JsonObject {
  const record = isObject(r.record) ? r.record : {};
  const reply = isObject(record.reply) ? record.reply : null;
  return reply && isObject(reply.root) ? reply.root : strongRef(r);
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
export function postView(call: Call, r: ObjectRecord): JsonObject {
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
export function byUri(call: Call, uri: string): ObjectRecord | undefined {
  const m = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri);
  if (!m) return undefined;
  let did = m[1]!;
  if (!did.startsWith('did:'))
    did = accountForHandle(call.ctx, call.slice, did, (id) => avatarUrl(call.ctx, 'bluesky', id))?.id ?? did;
  const normal = `at://${did}/${m[2]!}/${m[3]!}`;
  return findObject(call, 'posts', normal) ?? findObject(call, 'comments', normal);
}

/**
 * app.bsky.feed.defs#threadViewPost of a stored post or comment: its replies to `depth`, its parents to
 * `parentHeight`.
 */
export function threadView(call: Call, r: ObjectRecord, depth: number, parentHeight: number): JsonObject {
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

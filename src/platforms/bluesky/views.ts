// Bluesky's views and records as Herald's read model (engagement.ts): posts from the AppView's post views or from the
// repo's records, comments from a thread's nodes, and the small helpers over at:// URIs and strong refs.
import type { RemoteComment, RemotePost } from '../engagement.ts';
import { PlatformError } from '../types.ts';
import { blueskyFailure } from './errors.ts';
import { numberField, stringField } from './xrpc.ts';
import type { JsonObject } from './xrpc.ts';

const AT_URI = /^at:\/\/(did:[a-z0-9]+:[a-zA-Z0-9._:%-]+)\/([a-zA-Z0-9.-]+)\/([a-zA-Z0-9._~:-]{1,512})$/;

/** The connection a read is made with: its PDS, its account, its access token. */
export interface Session {
  pds: string;
  did: string;
  handle: string;
  token: string;
}

export function obj(value: unknown): JsonObject {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {};
}

export function parseUri(uri: string): { did: string; collection: string; rkey: string } {
  const m = AT_URI.exec(uri);
  if (!m) throw blueskyFailure('invalid_content', `Not a Bluesky post URI: ${uri.slice(0, 200)}`);
  return { did: m[1]!, collection: m[2]!, rkey: m[3]! };
}

/** The PDS answered an app.bsky.* read itself: it has no AppView to proxy it to. */
export function noAppView(err: unknown): boolean {
  if (!(err instanceof PlatformError)) return false;
  if (err.kind === 'unsupported') return true;
  return err.kind === 'invalid_content' && /no service configured/i.test(err.message);
}

/** A strong ref ({uri, cid}), or null. */
export function strongRef(value: unknown): { uri: string; cid: string } | null {
  const ref = obj(value);
  const uri = stringField(ref, 'uri');
  const cid = stringField(ref, 'cid');
  return uri && cid ? { uri, cid } : null;
}

/** Newest first by the record's createdAt, then by record key (TIDs sort by time). */
export function byNewest(a: RemoteComment, b: RemoteComment): number {
  return (
    (Date.parse(b.createdAt ?? '') || 0) - (Date.parse(a.createdAt ?? '') || 0) ||
    rkeyOf(b.id).localeCompare(rkeyOf(a.id))
  );
}

export const rkeyOf = (uri: string): string => uri.split('/').pop() ?? '';

/**
 * Replies are off: a threadgate that allows nobody (what the app's "Nobody can reply" writes), or the AppView saying
 * this viewer may not reply. The thread's author may always reply, so Herald can still answer what is there.
 */
export function repliesOff(view: JsonObject): boolean {
  const allow = obj(obj(view.threadgate).record).allow;
  return (Array.isArray(allow) && allow.length === 0) || obj(view.viewer).replyDisabled === true;
}

function typeAndMedia(embed: JsonObject): Pick<RemotePost, 'type' | 'images' | 'video'> {
  // A quote with media carries its media one level down.
  const media =
    embed.$type === 'app.bsky.embed.recordWithMedia#view' || embed.$type === 'app.bsky.embed.recordWithMedia'
      ? obj(embed.media)
      : embed;
  const type = String(media.$type ?? '');
  if (type.startsWith('app.bsky.embed.images')) {
    const images = (Array.isArray(media.images) ? media.images : []).map((raw) => {
      const img = obj(raw);
      const ratio = obj(img.aspectRatio);
      return {
        url: stringField(img, 'fullsize') ?? null,
        width: numberField(ratio, 'width') ?? undefined,
        height: numberField(ratio, 'height') ?? undefined,
      };
    });
    return { type: images.length > 1 ? 'carousel' : 'image', images, video: null };
  }
  if (type.startsWith('app.bsky.embed.video')) {
    return {
      type: 'video',
      images: [],
      video: {
        videoUrl: stringField(media, 'playlist') ?? null,
        thumbnailUrl: stringField(media, 'thumbnail') ?? null,
      },
    };
  }
  return { type: 'text', images: [], video: null };
}

/** A post from an AppView post view, with its numbers; `permalink` makes its address from its URI. */
export function fromView(view: JsonObject, permalink: (uri: string) => string): RemotePost {
  const uri = stringField(view, 'uri') ?? '';
  const record = obj(view.record);
  return {
    postId: uri,
    commentary: typeof record.text === 'string' ? record.text : null,
    publishedAt: stringField(record, 'createdAt') ?? stringField(view, 'indexedAt') ?? null,
    ...typeAndMedia(obj(view.embed)),
    permalink: permalink(uri),
    sourcePageId: null,
    metrics: {
      likes: numberField(view, 'likeCount') ?? 0,
      comments: numberField(view, 'replyCount') ?? 0,
      // A quote is a repost with words of its own: both spread the post.
      shares: (numberField(view, 'repostCount') ?? 0) + (numberField(view, 'quoteCount') ?? 0),
      // Bluesky counts no impressions or views.
      impressions: 0,
    },
    ...(repliesOff(view) ? { commentsDisabled: true } : {}),
  };
}

/** A post read from the repo (no AppView): what the record says, no numbers. */
export function fromRecord(out: JsonObject, permalink: (uri: string) => string): RemotePost {
  const uri = stringField(out, 'uri') ?? '';
  const record = obj(out.value);
  const embed = obj(record.embed);
  const shaped = typeAndMedia(embed);
  return {
    postId: uri,
    commentary: typeof record.text === 'string' ? record.text : null,
    publishedAt: stringField(record, 'createdAt') ?? null,
    type: shaped.type,
    // Blob URLs need the AppView's CDN; the repo only has blob references.
    images:
      shaped.type === 'image' || shaped.type === 'carousel'
        ? (Array.isArray(embed.images) ? embed.images : []).map(() => ({ url: null }))
        : [],
    video: shaped.type === 'video' ? { videoUrl: null, thumbnailUrl: null } : null,
    permalink: permalink(uri),
    sourcePageId: null,
    metrics: { likes: 0, comments: 0, shares: 0, impressions: 0 },
  };
}

/** A thread node as a comment, with its replies nested when `inline`; null for a post not found or blocked. */
export function commentOf(view: JsonObject, parentId: string | null, inline: boolean): RemoteComment | null {
  if (view.$type !== 'app.bsky.feed.defs#threadViewPost') return null; // notFoundPost, blockedPost
  const post = obj(view.post);
  const uri = stringField(post, 'uri');
  const cid = stringField(post, 'cid');
  if (!uri || !cid) return null;
  const record = obj(post.record);
  const author = obj(post.author);
  const root = strongRef(obj(record.reply).root);
  const nested = Array.isArray(view.replies)
    ? view.replies.map((r) => commentOf(obj(r), uri, inline)).filter((c): c is RemoteComment => c !== null)
    : [];
  return {
    id: uri,
    parentId,
    text: typeof record.text === 'string' ? record.text : '',
    authorName: stringField(author, 'displayName') ?? stringField(author, 'handle') ?? stringField(author, 'did') ?? '',
    authorId: stringField(author, 'did') ?? null,
    authorAvatarUrl: stringField(author, 'avatar') ?? null,
    createdAt: stringField(record, 'createdAt') ?? stringField(post, 'indexedAt') ?? null,
    likeCount: numberField(post, 'likeCount') ?? 0,
    replyCount: numberField(post, 'replyCount') ?? 0,
    ...(inline && nested.length > 0 ? { replies: nested.sort((a, b) => -byNewest(a, b)) } : {}),
    refs: { cid, ...(root ? { rootUri: root.uri, rootCid: root.cid } : {}) },
  };
}

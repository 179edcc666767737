// The read side on Bluesky. Posts and their numbers come from the AppView (app.bsky.feed.getAuthorFeed with
// posts_no_replies, getPosts), asked through the account's PDS, which proxies app.bsky.* reads with the session and adds
// the account's own just-written records (read-after-write). Comments are the replies in the post's thread
// (getPostThread); a comment's id is its at:// URI, and its CID and thread root are kept in `refs`, because a reply is a
// new post whose `reply` holds strong refs ({uri, cid}) to both the root and the parent. There are no impression counts.
//
// A PDS without an AppView (self-hosted, or the local reference PDS the tests run) answers app.bsky.* reads with
// "No service configured": the account's posts are then read from its repo (com.atproto.repo.listRecords/getRecord),
// without numbers, which only the AppView counts; threads cannot be read at all (other accounts' replies live in their
// own repos, and only an AppView indexes them), so comment reads say so. Replying still works: a comment's CID and
// root are read from its author's repo when Herald has no refs for it.
import type { Comments, Engagement, RemoteComment, RemotePost } from '../engagement.ts';
import type { TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { blueskyFailure } from './errors.ts';
import { buildFacets } from './facets.ts';
import { resolveDid, resolveHandle } from './identity.ts';
import type { IdentityUrls } from './identity.ts';
import { BLUESKY_CAPABILITIES } from './limits.ts';
import { POST_COLLECTION } from './publish.ts';
import { pdsOf } from './session.ts';
import { numberField, stringField, xrpc } from './xrpc.ts';
import type { JsonObject, XrpcClient } from './xrpc.ts';

/** getAuthorFeed's page maximum. */
const FEED_PAGE_MAX = 100;
/** Records of the account looked through for a reply whose create answer was lost. */
const RECENT_RECORDS = 25;
/** How deep getPostThread nests replies under each comment (the AppView's default). */
const THREAD_DEPTH = 6;

const AT_URI = /^at:\/\/(did:[a-z0-9]+:[a-zA-Z0-9._:%-]+)\/([a-zA-Z0-9.-]+)\/([a-zA-Z0-9._~:-]{1,512})$/;

interface Session {
  pds: string;
  did: string;
  handle: string;
  token: string;
}

function obj(value: unknown): JsonObject {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {};
}

function parseUri(uri: string): { did: string; collection: string; rkey: string } {
  const m = AT_URI.exec(uri);
  if (!m) throw blueskyFailure('invalid_content', `Not a Bluesky post URI: ${uri.slice(0, 200)}`);
  return { did: m[1]!, collection: m[2]!, rkey: m[3]! };
}

/** The PDS answered an app.bsky.* read itself: it has no AppView to proxy it to. */
function noAppView(err: unknown): boolean {
  if (!(err instanceof PlatformError)) return false;
  if (err.kind === 'unsupported') return true;
  return err.kind === 'invalid_content' && /no service configured/i.test(err.message);
}

/** A strong ref ({uri, cid}), or null. */
function strongRef(value: unknown): { uri: string; cid: string } | null {
  const ref = obj(value);
  const uri = stringField(ref, 'uri');
  const cid = stringField(ref, 'cid');
  return uri && cid ? { uri, cid } : null;
}

/** Newest first by the record's createdAt, then by record key (TIDs sort by time). */
function byNewest(a: RemoteComment, b: RemoteComment): number {
  return (
    (Date.parse(b.createdAt ?? '') || 0) - (Date.parse(a.createdAt ?? '') || 0) ||
    rkeyOf(b.id).localeCompare(rkeyOf(a.id))
  );
}

const rkeyOf = (uri: string): string => uri.split('/').pop() ?? '';

/**
 * Replies are off: a threadgate that allows nobody (what the app's "Nobody can reply" writes), or the AppView saying
 * this viewer may not reply. The thread's author may always reply, so Herald can still answer what is there.
 */
function repliesOff(view: JsonObject): boolean {
  const allow = obj(obj(view.threadgate).record).allow;
  return (Array.isArray(allow) && allow.length === 0) || obj(view.viewer).replyDisabled === true;
}

export function blueskyEngagement(client: XrpcClient, urls: IdentityUrls & { web: string }): Engagement {
  const session = (tokens: TokenSet): Session => {
    const did = tokens.extra?.did;
    if (!did) throw blueskyFailure('reauth_required', 'This Bluesky connection has no DID; reconnect the account');
    return { pds: pdsOf(tokens, urls.service), did, handle: tokens.extra?.handle ?? did, token: tokens.accessToken };
  };

  const call = (s: Session, nsid: string, params: Record<string, string>) =>
    xrpc(client, { base: s.pds, nsid, method: 'GET', context: 'access', bearer: s.token, params });

  // Permalinks as publishing makes them: the handle at connection time, the record key.
  const permalink = (s: Session, uri: string): string => `${urls.web}/profile/${s.handle}/post/${rkeyOf(uri)}`;

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

  function fromView(s: Session, view: JsonObject): RemotePost {
    const uri = stringField(view, 'uri') ?? '';
    const record = obj(view.record);
    return {
      postId: uri,
      commentary: typeof record.text === 'string' ? record.text : null,
      publishedAt: stringField(record, 'createdAt') ?? stringField(view, 'indexedAt') ?? null,
      ...typeAndMedia(obj(view.embed)),
      permalink: permalink(s, uri),
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
  function fromRecord(s: Session, out: JsonObject): RemotePost {
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
      permalink: permalink(s, uri),
      sourcePageId: null,
      metrics: { likes: 0, comments: 0, shares: 0, impressions: 0 },
    };
  }

  async function postsFromRepo(s: Session, limit: number): Promise<RemotePost[]> {
    client.logger.debug(
      { platform: 'bluesky' },
      'no AppView behind this PDS; listing posts from the repo without numbers',
    );
    const out: RemotePost[] = [];
    let cursor: string | undefined;
    do {
      const page = await call(s, 'com.atproto.repo.listRecords', {
        repo: s.did,
        collection: POST_COLLECTION,
        limit: String(FEED_PAGE_MAX),
        ...(cursor ? { cursor } : {}),
      });
      const records = Array.isArray(page.records) ? page.records.map(obj) : [];
      // Replies are posts of the repo too; the read model lists the account's own posts.
      for (const r of records) if (obj(r.value).reply === undefined && out.length < limit) out.push(fromRecord(s, r));
      cursor = records.length > 0 ? stringField(page, 'cursor') : undefined;
    } while (cursor && out.length < limit);
    return out;
  }

  async function listPosts(tokens: TokenSet, p: { limit: number }): Promise<RemotePost[]> {
    const s = session(tokens);
    const out: RemotePost[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await call(s, 'app.bsky.feed.getAuthorFeed', {
          actor: s.did,
          filter: 'posts_no_replies',
          limit: String(Math.min(FEED_PAGE_MAX, p.limit - out.length)),
          ...(cursor ? { cursor } : {}),
        });
        const feed = Array.isArray(page.feed) ? page.feed.map(obj) : [];
        for (const item of feed) {
          const view = obj(item.post);
          // Reposts of other accounts' posts appear in the feed with a `reason`; pinned posts repeat one of ours.
          if (item.reason !== undefined || stringField(obj(view.author), 'did') !== s.did) continue;
          if (out.length < p.limit && !out.some((x) => x.postId === view.uri)) out.push(fromView(s, view));
        }
        cursor = feed.length > 0 ? stringField(page, 'cursor') : undefined;
      } while (cursor && out.length < p.limit);
    } catch (err) {
      if (!noAppView(err)) throw err;
      return postsFromRepo(s, p.limit);
    }
    return out;
  }

  async function getPost(tokens: TokenSet, p: { postId: string }): Promise<RemotePost | null> {
    const s = session(tokens);
    const { did, collection, rkey } = parseUri(p.postId);
    try {
      const out = await call(s, 'app.bsky.feed.getPosts', { uris: p.postId });
      const view = (Array.isArray(out.posts) ? out.posts.map(obj) : []).find((v) => v.uri === p.postId);
      // getPosts leaves out what the AppView does not have: deleted (or not yet indexed) posts.
      return view ? fromView(s, view) : null;
    } catch (err) {
      if (!noAppView(err)) throw err;
    }
    try {
      return fromRecord(
        s,
        await xrpc(client, {
          base: s.pds,
          nsid: 'com.atproto.repo.getRecord',
          method: 'GET',
          context: 'access',
          bearer: s.token,
          params: { repo: did, collection, rkey },
        }),
      );
    } catch (err) {
      if (err instanceof PlatformError && err.kind === 'not_found') return null;
      throw err;
    }
  }

  async function deletePost(tokens: TokenSet, p: { postId: string }): Promise<void> {
    const s = session(tokens);
    const { did, collection, rkey } = parseUri(p.postId);
    if (did !== s.did) throw blueskyFailure('permission', 'This Bluesky post belongs to another account');
    // Deleting a record that is already gone succeeds on the PDS.
    await xrpc(client, {
      base: s.pds,
      nsid: 'com.atproto.repo.deleteRecord',
      method: 'POST',
      context: 'access',
      bearer: s.token,
      input: { repo: did, collection, rkey },
    });
  }

  function commentOf(view: JsonObject, parentId: string | null, inline: boolean): RemoteComment | null {
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
      authorName:
        stringField(author, 'displayName') ?? stringField(author, 'handle') ?? stringField(author, 'did') ?? '',
      authorId: stringField(author, 'did') ?? null,
      authorAvatarUrl: stringField(author, 'avatar') ?? null,
      createdAt: stringField(record, 'createdAt') ?? stringField(post, 'indexedAt') ?? null,
      likeCount: numberField(post, 'likeCount') ?? 0,
      replyCount: numberField(post, 'replyCount') ?? 0,
      ...(inline && nested.length > 0 ? { replies: nested.sort((a, b) => -byNewest(a, b)) } : {}),
      refs: { cid, ...(root ? { rootUri: root.uri, rootCid: root.cid } : {}) },
    };
  }

  async function thread(s: Session, uri: string, depth: number): Promise<JsonObject> {
    try {
      const out = await xrpc(client, {
        base: s.pds,
        nsid: 'app.bsky.feed.getPostThread',
        method: 'GET',
        context: 'access',
        bearer: s.token,
        params: { uri, depth: String(depth), parentHeight: '0' },
      });
      return obj(out.thread);
    } catch (err) {
      if (!noAppView(err)) throw err;
      throw blueskyFailure(
        'unsupported',
        "This Bluesky server has no AppView, so comments cannot be read: other accounts' replies are only indexed by an AppView",
        err,
      );
    }
  }

  /** The CID and thread root of a comment, from its author's repo (authoritative, and needs no AppView). */
  async function refsFromRepo(uri: string): Promise<{ cid: string; rootUri: string; rootCid: string }> {
    const { did, collection, rkey } = parseUri(uri);
    const identity = await resolveDid(client, urls, did);
    const out = await xrpc(client, {
      base: identity.pds,
      nsid: 'com.atproto.repo.getRecord',
      method: 'GET',
      context: 'public',
      params: { repo: did, collection, rkey },
    });
    const cid = stringField(out, 'cid');
    if (!cid) throw blueskyFailure('transient', 'Bluesky answered getRecord without a CID');
    const root = strongRef(obj(obj(out.value).reply).root);
    return { cid, rootUri: root?.uri ?? uri, rootCid: root?.cid ?? cid };
  }

  /** A reply this account wrote with exactly this record (createdAt, text, parent), among its newest records. */
  async function findReply(s: Session, record: JsonObject): Promise<string | null> {
    const page = await call(s, 'com.atproto.repo.listRecords', {
      repo: s.did,
      collection: POST_COLLECTION,
      limit: String(RECENT_RECORDS),
    });
    const parent = strongRef(obj(record.reply).parent);
    for (const r of Array.isArray(page.records) ? page.records.map(obj) : []) {
      const value = obj(r.value);
      if (
        value.createdAt === record.createdAt &&
        value.text === record.text &&
        strongRef(obj(value.reply).parent)?.uri === parent?.uri
      )
        return stringField(r, 'uri') ?? null;
    }
    return null;
  }

  const resolver = async (handle: string): Promise<string | null> => {
    try {
      return await resolveHandle(client, urls, handle);
    } catch (err) {
      if (err instanceof PlatformError && (err.kind === 'invalid_content' || err.kind === 'not_found')) return null;
      throw err;
    }
  };

  const comments: Comments = {
    textLimit: BLUESKY_CAPABILITIES.text!,

    async list(tokens, p) {
      const s = session(tokens);
      parseUri(p.postId);
      const root = await thread(s, p.postId, THREAD_DEPTH);
      const replies = Array.isArray(root.replies)
        ? root.replies.map((r) => commentOf(obj(r), null, true)).filter((c): c is RemoteComment => c !== null)
        : [];
      const disabled = repliesOff(obj(root.post));
      return { comments: replies.sort(byNewest).slice(0, p.limit), ...(disabled ? { disabled } : {}) };
    },

    async replies(tokens, p) {
      const s = session(tokens);
      parseUri(p.commentId);
      const node = await thread(s, p.commentId, THREAD_DEPTH);
      const direct = Array.isArray(node.replies)
        ? node.replies.map((r) => commentOf(obj(r), p.commentId, true)).filter((c): c is RemoteComment => c !== null)
        : [];
      // A thread reads oldest first.
      return direct.sort((a, b) => -byNewest(a, b)).slice(0, p.limit);
    },

    async reply(tokens, p) {
      const s = session(tokens);
      parseUri(p.commentId);
      const known =
        p.refs?.cid && p.refs.rootUri && p.refs.rootCid
          ? { cid: p.refs.cid, rootUri: p.refs.rootUri, rootCid: p.refs.rootCid }
          : await refsFromRepo(p.commentId);
      const facets = await buildFacets(p.text, resolver);
      const record: JsonObject = {
        $type: POST_COLLECTION,
        text: p.text,
        createdAt: client.clock().toISOString(),
        reply: { root: { uri: known.rootUri, cid: known.rootCid }, parent: { uri: p.commentId, cid: known.cid } },
        ...(facets.length ? { facets } : {}),
      };
      let out: JsonObject;
      try {
        out = await xrpc(client, {
          base: s.pds,
          nsid: 'com.atproto.repo.createRecord',
          method: 'POST',
          context: 'access',
          bearer: s.token,
          input: { repo: s.did, collection: POST_COLLECTION, record },
        });
      } catch (err) {
        // An answer lost on the way back may hide a reply the PDS wrote: the record's own createdAt, text and parent
        // find it among the newest records of the repo, so a retry does not answer twice.
        if (!(err instanceof PlatformError) || err.kind !== 'transient') throw err;
        const written = await findReply(s, record).catch(() => null);
        if (written) return { replyId: written };
        throw err;
      }
      const uri = stringField(out, 'uri');
      if (!uri) throw blueskyFailure('transient', 'Bluesky answered createRecord without a URI');
      return { replyId: uri };
    },
  };

  return { listPosts, getPost, deletePost, comments };
}

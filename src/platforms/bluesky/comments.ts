// Comments on Bluesky (engagement.ts): the replies in a post's thread (getPostThread), read through the account's
// PDS, and replies written as new posts whose `reply` holds strong refs to the thread's root and the parent.
import type { Comments, RemoteComment } from '../engagement.ts';
import type { TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { blueskyFailure } from './errors.ts';
import { buildFacets } from './facets.ts';
import { resolveDid, resolveHandle } from './identity.ts';
import type { IdentityUrls } from './identity.ts';
import { BLUESKY_CAPABILITIES } from './limits.ts';
import { POST_COLLECTION } from './publish.ts';
import { byNewest, commentOf, noAppView, obj, parseUri, repliesOff, strongRef } from './views.ts';
import type { Session } from './views.ts';
import { stringField, xrpc } from './xrpc.ts';
import type { JsonObject, XrpcClient } from './xrpc.ts';

/** Records of the account looked through for a reply whose create answer was lost. */
const RECENT_RECORDS = 25;
/** How deep getPostThread nests replies under each comment (the AppView's default). */
const THREAD_DEPTH = 6;

/** The comments of the account's posts: `session` and `call` are the engagement's own (engagement.ts). */
export function blueskyComments(
  client: XrpcClient,
  urls: IdentityUrls,
  session: (tokens: TokenSet) => Session,
  call: (s: Session, nsid: string, params: Record<string, string>) => Promise<JsonObject>,
  permalink?: (s: Session) => (uri: string) => string,
): Comments {
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

    // A reply to the post itself, in its thread: Bluesky has no comments apart from replies.
    async comment(tokens, p) {
      const { replyId } = await comments.reply(tokens, { ...p, commentId: p.postId });
      // A reply is a post of the account's: its address is made as the post's own permalink is.
      return { commentId: replyId, ...(permalink ? { permalink: permalink(session(tokens))(replyId) } : {}) };
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
  return comments;
}

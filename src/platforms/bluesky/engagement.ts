// The read side on Bluesky. Posts and their numbers come from the AppView (app.bsky.feed.getAuthorFeed with
// posts_no_replies, getPosts), asked through the account's PDS, which proxies app.bsky.* reads with the session and
// adds the account's own just-written records (read-after-write). Comments are the replies in the post's thread
// (getPostThread, in comments.ts); a comment's id is its at:// URI, and its CID and thread root are kept in `refs`,
// because a reply is a new post whose `reply` holds strong refs ({uri, cid}) to both the root and the parent. There
// are no impression counts.
//
// A PDS without an AppView (self-hosted, or the local reference PDS the tests run) answers app.bsky.* reads with
// "No service configured": the account's posts are then read from its repo (com.atproto.repo.listRecords/getRecord),
// without numbers, which only the AppView counts; threads cannot be read at all (other accounts' replies live in their
// own repos, and only an AppView indexes them), so comment reads say so. Replying still works: a comment's CID and
// root are read from its author's repo when Herald has no refs for it.
import type { Engagement, RemotePost } from '../engagement.ts';
import type { TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { blueskyComments } from './comments.ts';
import { blueskyFailure } from './errors.ts';
import type { IdentityUrls } from './identity.ts';
import { POST_COLLECTION } from './publish.ts';
import { pdsOf } from './session.ts';
import { fromRecord, fromView, noAppView, obj, parseUri, rkeyOf } from './views.ts';
import type { Session } from './views.ts';
import { stringField, xrpc } from './xrpc.ts';
import type { XrpcClient } from './xrpc.ts';

/** getAuthorFeed's page maximum. */
const FEED_PAGE_MAX = 100;

export function blueskyEngagement(client: XrpcClient, urls: IdentityUrls & { web: string }): Engagement {
  const session = (tokens: TokenSet): Session => {
    const did = tokens.extra?.did;
    if (!did) throw blueskyFailure('reauth_required', 'This Bluesky connection has no DID; reconnect the account');
    return { pds: pdsOf(tokens, urls.service), did, handle: tokens.extra?.handle ?? did, token: tokens.accessToken };
  };

  const call = (s: Session, nsid: string, params: Record<string, string>) =>
    xrpc(client, { base: s.pds, nsid, method: 'GET', context: 'access', bearer: s.token, params });

  // Permalinks as publishing makes them: the handle at connection time, the record key.
  const permalink =
    (s: Session) =>
    (uri: string): string =>
      `${urls.web}/profile/${s.handle}/post/${rkeyOf(uri)}`;

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
      for (const r of records)
        if (obj(r.value).reply === undefined && out.length < limit) out.push(fromRecord(r, permalink(s)));
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
          if (out.length < p.limit && !out.some((x) => x.postId === view.uri)) out.push(fromView(view, permalink(s)));
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
      return view ? fromView(view, permalink(s)) : null;
    } catch (err) {
      if (!noAppView(err)) throw err;
    }
    try {
      return fromRecord(
        await xrpc(client, {
          base: s.pds,
          nsid: 'com.atproto.repo.getRecord',
          method: 'GET',
          context: 'access',
          bearer: s.token,
          params: { repo: did, collection, rkey },
        }),
        permalink(s),
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

  return { listPosts, getPost, deletePost, comments: blueskyComments(client, urls, session, call, permalink) };
}

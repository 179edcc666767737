// Comments and replies in the Bluesky simulator (engagement.ts): simulated commenters' posts, and replies from the
// connected account, whose `reply` strong refs are checked against the thread before they are stored under their
// parent.
import type { SandboxContext } from '../core/context.ts';
import { declareEngagement, putComment } from '../core/engagement.ts';
import type { CommentInput } from '../core/engagement.ts';
import { text } from '../core/objects.ts';
import type { Call, ErrorAnswer } from '../core/route.ts';
import type { AccountRecord, JsonObject, ObjectRecord } from '../core/types.ts';
import { didForHandle } from './account.ts';
import { cid, tid } from './cid.ts';
import { xrpcError } from './errors.ts';
import { POST, byUri, isObject, rkeyOf, rootRefOf, strongRef } from './views.ts';

/** Simulated commenters live on the same PDS, with handles of their own. */
export const commenterHandle = (n: number): string => `commenter-${n + 1}.sandbox`;

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

// The repo part of the PDS: com.atproto.repo.uploadBlob (raw bytes → blob ref), createRecord for app.bsky.feed.post
// (validated, blobs resolved), getRecord, listRecords (reconciliation without an AppView) and deleteRecord.
import { headerValue, queryParams } from '../core/http.ts';
import { bodyBytes, sniff, UPLOAD_BODY_LIMIT } from '../core/media.ts';
import { findObject, putObject, putPost, text } from '../core/objects.ts';
import { avatarUrl } from '../core/oauth.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, Simulator } from '../core/route.ts';
import type { AccountRecord, JsonObject, JsonValue, ObjectRecord } from '../core/types.ts';
import { accountForHandle } from './account.ts';
import { cid, TID, tid } from './cid.ts';
import { xrpcError } from './errors.ts';
import { checkReplyRefs, storeReply } from './engagement.ts';
import { validatePost } from './post-record.ts';
import type { BlobStore } from './post-record.ts';
import { viewer } from './session.ts';
import { inputObject } from './xrpc.ts';

const POST = 'app.bsky.feed.post';
/** bsky.social's PDS-wide blob cap (self-hosted PDSes default to 5 MB). */
export const BLOB_LIMIT = 50 * 1024 * 1024;

export const blobKey = (did: string, link: string): string => `${did}/${link}`;

export function blobsOf(call: Call, did: string): BlobStore {
  return {
    get: (link) => {
      const b = call.slice.media.get(blobKey(did, link));
      return b && b.kind === 'blob' ? { mimeType: text(b.mimeType), size: Number(b.size) } : undefined;
    },
  };
}

export function storeBlob(call: Call, did: string, bytes: Buffer, mimeType: string, source: string): JsonObject {
  const link = cid('raw', bytes);
  const key = blobKey(did, link);
  if (!call.slice.media.has(key)) {
    putObject(call, 'media', {
      id: key,
      accountId: did,
      kind: 'blob',
      cid: link,
      mimeType,
      size: bytes.length,
      source,
      referencedBy: [],
    });
  }
  return { $type: 'blob', ref: { $link: link }, mimeType, size: bytes.length };
}

function repoAccount(call: Call, repo: string): AccountRecord | undefined {
  if (repo.startsWith('did:')) return call.slice.accounts.get(repo);
  return accountForHandle(call.ctx, call.slice, repo, (id) => avatarUrl(call.ctx, 'bluesky', id)) ?? undefined;
}

function isReply(record: unknown): record is Record<string, unknown> & { reply: unknown } {
  return (
    !!record &&
    typeof record === 'object' &&
    !Array.isArray(record) &&
    (record as Record<string, unknown>).reply !== undefined
  );
}

function recordView(post: ObjectRecord): JsonObject {
  return { uri: post.id, cid: post.cid ?? null, value: post.record ?? null };
}

const commit = (call: Call): JsonObject => ({
  cid: cid('dag-cbor', `${call.ctx.nowMs()}:${Math.random()}`),
  rev: tid(call.ctx.nowMs()),
});

export function registerRepo(sim: Simulator): void {
  const xrpc = (nsid: string) => `/xrpc/${nsid}`;
  const missing = (name: string) => xrpcError(400, 'InvalidRequest', `Error: Params must have the property "${name}"`);

  addRoute(sim, {
    method: 'POST',
    url: xrpc('com.atproto.repo.uploadBlob'),
    ops: ['upload'],
    surface: 'api',
    bodyLimit: UPLOAD_BODY_LIMIT,
    handler: (req, reply, call) => {
      const account = viewer(req, reply, call, false);
      if (!account) return reply;
      const bytes = bodyBytes(req);
      if (bytes.length > BLOB_LIMIT)
        return sendAnswer(reply, xrpcError(413, 'PayloadTooLarge', 'request entity too large'));
      // Like the reference PDS, the sniffed type wins over the declared Content-Type.
      const declared = (headerValue(req, 'content-type') ?? '').split(';')[0]?.trim() || 'application/octet-stream';
      return reply.send({ blob: storeBlob(call, account.id, bytes, sniff(bytes) ?? declared, 'uploadBlob') });
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: xrpc('com.atproto.repo.createRecord'),
    ops: ['publish', 'reply'],
    // A post with `reply` refs is a reply (to a comment, or in a thread).
    opsFor: (req) => (isReply(inputObject(req)?.record) ? ['reply'] : ['publish']),
    surface: 'api',
    handler: (req, reply, call) => {
      const account = viewer(req, reply, call, false);
      if (!account) return reply;
      const input = inputObject(req);
      if (!input)
        return sendAnswer(
          reply,
          xrpcError(400, 'InvalidRequest', 'Request encoding (Content-Type) required but not provided'),
        );
      for (const key of ['repo', 'collection', 'record']) {
        if (input[key] === undefined)
          return sendAnswer(reply, xrpcError(400, 'InvalidRequest', `Input must have the property "${key}"`));
      }
      if (repoAccount(call, String(input.repo))?.id !== account.id)
        return sendAnswer(reply, xrpcError(401, 'AuthenticationRequired', 'Authentication Required'));
      const collection = String(input.collection);
      if (!/^[a-zA-Z][a-zA-Z0-9-]*(\.[a-zA-Z0-9-]+)+$/.test(collection))
        return sendAnswer(reply, xrpcError(400, 'InvalidRequest', `Invalid collection: ${collection}`));
      if (collection !== POST)
        return sendAnswer(
          reply,
          xrpcError(400, 'InvalidRequest', `The sandbox only stores ${POST} records, not ${collection}`),
        );
      const record = input.record;
      if (!record || typeof record !== 'object' || Array.isArray(record))
        return sendAnswer(reply, xrpcError(400, 'InvalidRequest', 'Input/record must be an object'));
      const value = record as Record<string, unknown>;
      if (value.$type !== POST)
        return sendAnswer(
          reply,
          xrpcError(400, 'InvalidRequest', `Invalid $type: expected ${POST}, got ${String(value.$type)}`),
        );
      const rkey = input.rkey === undefined ? tid(call.ctx.nowMs()) : String(input.rkey);
      if (!TID.test(rkey))
        return sendAnswer(reply, xrpcError(400, 'InvalidRequest', `Invalid rkey: ${rkey} is not a TID`));
      const uri = `at://${account.id}/${POST}/${rkey}`;
      if (call.slice.posts.has(uri) || call.slice.comments.has(uri))
        return sendAnswer(reply, xrpcError(400, 'InvalidRequest', `Record already exists: ${uri}`));
      const summary = validatePost(value, blobsOf(call, account.id));
      if ('status' in summary) return sendAnswer(reply, summary);
      const json = JSON.parse(JSON.stringify(value)) as JsonValue;
      const recordCid = cid('dag-cbor', JSON.stringify(value));
      if (isReply(value)) {
        const thread = checkReplyRefs(call, value.reply as JsonObject);
        if ('status' in thread) return sendAnswer(reply, thread);
        storeReply(call, account, thread, uri, recordCid, json as JsonObject);
        return reply.send({ uri, cid: recordCid, commit: commit(call), validationStatus: 'valid' });
      }
      putPost(
        call,
        req,
        {
          id: uri,
          accountId: account.id,
          author: account.id,
          text: summary.text,
          media: summary.blobs,
          permalink: `${call.ctx.base('bluesky')}/profile/${account.username}/post/${rkey}`,
        },
        { handle: account.username, rkey, cid: recordCid, collection, record: json, validationStatus: 'valid' },
      );
      for (const link of summary.blobs) {
        const stored = call.slice.media.get(blobKey(account.id, link));
        if (stored && Array.isArray(stored.referencedBy)) stored.referencedBy = [...stored.referencedBy, uri];
      }
      return reply.send({ uri, cid: recordCid, commit: commit(call), validationStatus: 'valid' });
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: xrpc('com.atproto.repo.getRecord'),
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      if (viewer(req, reply, call, true) === null) return reply;
      const q = queryParams(req);
      for (const name of ['repo', 'collection', 'rkey']) if (!q[name]) return sendAnswer(reply, missing(name));
      const account = repoAccount(call, q.repo ?? '');
      const uri = `at://${account?.id ?? q.repo ?? ''}/${q.collection ?? ''}/${q.rkey ?? ''}`;
      const post = findObject(call, 'posts', uri) ?? findObject(call, 'comments', uri);
      if (!post || (q.cid && q.cid !== post.cid))
        return sendAnswer(reply, xrpcError(400, 'RecordNotFound', `Could not locate record: ${uri}`));
      return reply.send(recordView(post));
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: xrpc('com.atproto.repo.listRecords'),
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      if (viewer(req, reply, call, true) === null) return reply;
      const q = queryParams(req);
      for (const name of ['repo', 'collection']) if (!q[name]) return sendAnswer(reply, missing(name));
      const limit = Number(q.limit ?? 50);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100)
        return sendAnswer(reply, xrpcError(400, 'InvalidRequest', 'Error: limit must be between 1 and 100'));
      const account = repoAccount(call, q.repo ?? '');
      if (!account) return sendAnswer(reply, xrpcError(400, 'InvalidRequest', `Could not find repo: ${q.repo ?? ''}`));
      const reverse = q.reverse === 'true';
      // Replies the account wrote are posts of its repo too (kept with the comments they answer).
      const replies = [...call.slice.comments.values()].filter(
        (c) => c.authorId === account.id && c.collection === q.collection,
      );
      const records = [...call.slice.posts.values(), ...replies]
        .filter((p) => (p.postId !== undefined || p.accountId === account.id) && p.collection === q.collection)
        .sort((a, b) => (reverse ? 1 : -1) * text(a.rkey).localeCompare(text(b.rkey)))
        .filter((p) => !q.cursor || (reverse ? text(p.rkey) > q.cursor : text(p.rkey) < q.cursor));
      const page = records.slice(0, limit);
      const last = page[page.length - 1];
      return reply.send({
        records: page.map(recordView),
        ...(records.length > limit && last ? { cursor: text(last.rkey) } : {}),
      });
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: xrpc('com.atproto.repo.deleteRecord'),
    ops: ['delete'],
    surface: 'api',
    handler: (req, reply, call) => {
      const account = viewer(req, reply, call, false);
      if (!account) return reply;
      const input = inputObject(req);
      for (const key of ['repo', 'collection', 'rkey']) {
        if (input?.[key] === undefined)
          return sendAnswer(reply, xrpcError(400, 'InvalidRequest', `Input must have the property "${key}"`));
      }
      if (repoAccount(call, String(input?.repo))?.id !== account.id)
        return sendAnswer(reply, xrpcError(401, 'AuthenticationRequired', 'Authentication Required'));
      // Deleting a record that does not exist succeeds, as on the PDS.
      const uri = `at://${account.id}/${String(input?.collection)}/${String(input?.rkey)}`;
      call.slice.posts.delete(uri);
      if (call.slice.comments.get(uri)?.authorId === account.id) call.slice.comments.delete(uri);
      return reply.send({ commit: commit(call) });
    },
  });
}

// Records that publishing simulators keep in the store: posts, media, containers and upload sessions. Every record
// carries `id`, `accountId` and `createdAt`; posts also carry what a test needs to prove exactly-once publishing
// (the network's post id, author, text, media references, permalink) and the request that created them.
import type { FastifyRequest } from 'fastify';
import type { Call } from './route.ts';
import { current } from './processing.ts';
import type { ObjectMap } from './store.ts';
import type { JsonObject, JsonValue, ObjectRecord } from './types.ts';

function toJson(value: unknown): JsonValue {
  if (value === undefined) return null;
  if (Buffer.isBuffer(value)) return { bytes: value.length };
  try {
    return JSON.parse(JSON.stringify(value)) as JsonValue;
  } catch {
    return String(value);
  }
}

/** What the simulator received: method, path, query, headers and body (raw bytes reduced to their length). */
export function requestSnapshot(req: FastifyRequest): JsonObject {
  return {
    method: req.method,
    path: new URL(req.url, 'http://sandbox.invalid').pathname,
    query: toJson(req.query ?? {}),
    headers: toJson(req.headers),
    body: toJson(req.body),
  };
}

/** Stores a new record in one of the slice's object maps; `createdAt` is the sandbox clock. */
export function putObject(
  call: Call,
  map: ObjectMap,
  fields: JsonObject & { id: string; accountId: string },
): ObjectRecord {
  const { id, accountId, ...rest } = fields;
  const record: ObjectRecord = { id, accountId, createdAt: call.ctx.now().toISOString(), ...rest };
  call.slice[map].set(id, record);
  return record;
}

export interface PostInput {
  /** The network's own post id (URN, at-uri, numeric id …). */
  id: string;
  accountId: string;
  /** Who the post appears as: member / organization URN, Page id, IG user id, DID, channel id … */
  author: string;
  text: string;
  /** Media references: URNs, ids, URLs or blob CIDs, in the order they appear. */
  media: string[];
  permalink: string;
}

/** Stores a published post with the request that created it. */
export function putPost(call: Call, req: FastifyRequest, input: PostInput, extra: JsonObject = {}): ObjectRecord {
  return putObject(call, 'posts', { ...input, ...extra, request: requestSnapshot(req) });
}

/** A record of this slice with its due processing steps applied, or undefined. */
export function findObject(call: Call, map: ObjectMap, id: string | undefined): ObjectRecord | undefined {
  const record = id === undefined ? undefined : call.slice[map].get(id);
  return record ? current(call.ctx, record) : undefined;
}

/** Records of a map that belong to one account, oldest first, settled. */
export function objectsOf(call: Call, map: ObjectMap, accountId: string): ObjectRecord[] {
  return [...call.slice[map].values()].filter((r) => r.accountId === accountId).map((r) => current(call.ctx, r));
}

/** Posts of an account created within the last `windowMs` of the sandbox clock (publishing quotas). */
export function postsWithin(
  call: Call,
  accountId: string,
  windowMs: number,
  filter: (r: ObjectRecord) => boolean = () => true,
): number {
  const since = call.ctx.nowMs() - windowMs;
  return objectsOf(call, 'posts', accountId).filter((p) => Date.parse(p.createdAt) > since && filter(p)).length;
}

export function text(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : '';
}

export function num(value: JsonValue | undefined, fallback = 0): number {
  return typeof value === 'number' ? value : fallback;
}

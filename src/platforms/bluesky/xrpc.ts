// Raw XRPC over PlatformHttp: queries are GETs with query parameters, procedures are POSTs with JSON. Every call
// names its base URL (entryway, the account's PDS, the PLC directory) because a Bluesky account can live anywhere.
import type { Logger } from 'pino';
import type { PlatformHttp } from '../http.ts';
import { blueskyError, blueskyFailure } from './errors.ts';
import type { XrpcContext } from './errors.ts';

export interface XrpcClient {
  http: PlatformHttp;
  clock: () => Date;
  logger: Logger;
}

export interface XrpcRequest {
  base: string;
  nsid: string;
  method: 'GET' | 'POST';
  context: XrpcContext;
  bearer?: string | undefined;
  params?: Record<string, string>;
  input?: unknown;
}

export type JsonObject = Record<string, unknown>;

export function trimBase(url: string): string {
  return url.replace(/\/+$/, '');
}

function asObject(data: unknown): JsonObject {
  return data && typeof data === 'object' && !Array.isArray(data) ? (data as JsonObject) : {};
}

/** Calls an XRPC method; resolves to the JSON output (an empty object when there is none). */
export async function xrpc(client: XrpcClient, req: XrpcRequest): Promise<JsonObject> {
  const res = await client.http.request('bluesky', {
    method: req.method,
    url: `${trimBase(req.base)}/xrpc/${req.nsid}`,
    ...(req.params ? { query: req.params } : {}),
    ...(req.input !== undefined ? { json: req.input } : {}),
    headers: {
      accept: 'application/json',
      ...(req.bearer ? { authorization: `Bearer ${req.bearer}` } : {}),
    },
  });
  if (res.status >= 200 && res.status < 300) return asObject(res.data);
  throw blueskyError(res, req.context, client.clock());
}

/** A plain JSON document (a DID document from the PLC directory or a did:web host). */
export async function getJson(client: XrpcClient, url: string): Promise<JsonObject> {
  const res = await client.http.request('bluesky', { method: 'GET', url, headers: { accept: 'application/json' } });
  if (res.status >= 200 && res.status < 300) {
    if (res.data === undefined) throw blueskyFailure('transient', 'Bluesky identity directory answered without JSON');
    return asObject(res.data);
  }
  throw blueskyError(res, 'public', client.clock());
}

export function stringField(obj: JsonObject, key: string): string | undefined {
  const value = obj[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function numberField(obj: JsonObject, key: string): number | null {
  const value = obj[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

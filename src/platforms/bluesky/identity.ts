// Identity resolution: handle → DID (via the configured service's resolveHandle) → DID document (PLC directory or
// did:web host) → the account's own PDS, which is where its session lives.
import { blueskyFailure } from './errors.ts';
import { getJson, stringField, trimBase, xrpc } from './xrpc.ts';
import type { JsonObject, XrpcClient } from './xrpc.ts';
import { PlatformError } from '../types.ts';

export interface IdentityUrls {
  /** Entryway / PDS that answers resolveHandle. */
  service: string;
  /** PLC directory. */
  plc: string;
}

export interface ResolvedIdentity {
  did: string;
  /** The account's PDS base URL (no trailing slash). */
  pds: string;
  /** Handles the DID document claims (`alsoKnownAs` at:// entries). */
  handles: string[];
}

// atproto handle syntax: DNS labels, at least two, final label starting with a letter.
const HANDLE = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;
const DID_PLC = /^did:plc:[a-z2-7]{24}$/;
// Hostname-level did:web only: atproto does not use path-based did:web, and a port would let a DID point anywhere.
const DID_WEB = /^did:web:([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Lowercased, without a leading `@` or `at://`. */
export function normalizeHandle(raw: string): string {
  return raw
    .trim()
    .replace(/^at:\/\//i, '')
    .replace(/^@/, '')
    .toLowerCase();
}

export function isHandle(value: string): boolean {
  return value.length <= 253 && HANDLE.test(value);
}

export function isSupportedDid(value: string): boolean {
  return DID_PLC.test(value) || DID_WEB.test(value);
}

export async function resolveHandle(client: XrpcClient, urls: IdentityUrls, handle: string): Promise<string> {
  try {
    const out = await xrpc(client, {
      base: urls.service,
      nsid: 'com.atproto.identity.resolveHandle',
      method: 'GET',
      context: 'public',
      params: { handle },
    });
    const did = stringField(out, 'did');
    if (!did || !isSupportedDid(did))
      throw blueskyFailure('invalid_content', `Bluesky handle @${handle} resolves to an unsupported DID`);
    return did;
  } catch (err) {
    // The reference PDS answers an unknown handle with 400 InvalidRequest "Unable to resolve handle".
    if (err instanceof PlatformError && (err.kind === 'invalid_content' || err.kind === 'not_found') && err.code) {
      throw blueskyFailure('invalid_content', `Bluesky handle @${handle} was not found`, err);
    }
    throw err;
  }
}

function didDocumentUrl(urls: IdentityUrls, did: string): string {
  if (did.startsWith('did:plc:')) return `${trimBase(urls.plc)}/${did}`;
  return `https://${did.slice('did:web:'.length)}/.well-known/did.json`;
}

/** The `#atproto_pds` endpoint of a DID document, as an http(s) base URL. */
export function pdsEndpoint(doc: JsonObject, did: string): string | undefined {
  const services = Array.isArray(doc.service) ? (doc.service as unknown[]) : [];
  for (const entry of services) {
    if (!entry || typeof entry !== 'object') continue;
    const s = entry as JsonObject;
    const id = stringField(s, 'id');
    if (id !== '#atproto_pds' && id !== `${did}#atproto_pds`) continue;
    if (stringField(s, 'type') !== 'AtprotoPersonalDataServer') continue;
    const endpoint = stringField(s, 'serviceEndpoint');
    if (!endpoint || !URL.canParse(endpoint)) return undefined;
    const url = new URL(endpoint);
    if (
      (url.protocol !== 'https:' && url.protocol !== 'http:') ||
      url.username ||
      url.password ||
      url.search ||
      url.hash
    ) {
      return undefined;
    }
    return trimBase(url.toString());
  }
  return undefined;
}

function claimedHandles(doc: JsonObject): string[] {
  const aka = Array.isArray(doc.alsoKnownAs) ? (doc.alsoKnownAs as unknown[]) : [];
  return aka.filter((v): v is string => typeof v === 'string' && v.startsWith('at://')).map((v) => normalizeHandle(v));
}

export async function resolveDid(client: XrpcClient, urls: IdentityUrls, did: string): Promise<ResolvedIdentity> {
  if (!isSupportedDid(did)) throw blueskyFailure('invalid_content', 'Unsupported Bluesky DID');
  let doc: JsonObject;
  try {
    doc = await getJson(client, didDocumentUrl(urls, did));
  } catch (err) {
    // Only an answer means "no document"; a destination the address policy refused says so itself.
    if (
      err instanceof PlatformError &&
      err.status !== undefined &&
      (err.kind === 'not_found' || err.kind === 'invalid_content')
    ) {
      throw blueskyFailure('invalid_content', `No DID document found for ${did}`, err);
    }
    throw err;
  }
  if (stringField(doc, 'id') !== did)
    throw blueskyFailure('invalid_content', `The DID document of ${did} is for another DID`);
  const pds = pdsEndpoint(doc, did);
  if (!pds) throw blueskyFailure('invalid_content', `The DID document of ${did} names no usable PDS`);
  return { did, pds, handles: claimedHandles(doc) };
}

/** Handle (or DID) → DID → PDS. */
export async function resolveIdentity(
  client: XrpcClient,
  urls: IdentityUrls,
  identifier: string,
): Promise<ResolvedIdentity> {
  const id = normalizeHandle(identifier);
  if (id.startsWith('did:')) return resolveDid(client, urls, id);
  if (!isHandle(id)) throw blueskyFailure('invalid_content', 'Not a valid Bluesky handle (e.g. alice.bsky.social)');
  return resolveDid(client, urls, await resolveHandle(client, urls, id));
}

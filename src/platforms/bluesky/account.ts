// The connected account: app.bsky.actor.getProfile through the account's PDS (which proxies it to the AppView). A
// PDS without an AppView (self-hosted, or our local test PDS) cannot answer that, so the profile is then read from
// the repo itself: the session for the handle and the app.bsky.actor.profile/self record for the rest.
import type { AccountIdentity, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { blueskyFailure } from './errors.ts';
import { pdsOf } from './session.ts';
import { numberField, stringField, xrpc } from './xrpc.ts';
import type { JsonObject, XrpcClient } from './xrpc.ts';

/**
 * contract-gaps §5: `{ profile: { handle, display_name, description, followers_count, follows_count, posts_count,
 * avatar, banner, did } }`
 */
export interface BlueskyProfileSlice {
  handle: string;
  display_name: string | null;
  description: string | null;
  followers_count: number | null;
  follows_count: number | null;
  posts_count: number | null;
  avatar: string | null;
  banner: string | null;
  did: string;
}

// Failures that say nothing about the fallback's chances: the credential, the throttle and permissions are shared.
const FINAL = new Set(['auth_expired', 'reauth_required', 'rate_limited', 'permission']);

function identityOf(profile: BlueskyProfileSlice): AccountIdentity {
  return {
    id: profile.did,
    name: profile.display_name || profile.handle,
    username: profile.handle,
    avatarUrl: profile.avatar,
    destinations: [],
    slice: { profile },
  };
}

function fromProfileView(view: JsonObject, did: string): BlueskyProfileSlice {
  return {
    handle: stringField(view, 'handle') ?? did,
    display_name: stringField(view, 'displayName') ?? null,
    description: stringField(view, 'description') ?? null,
    followers_count: numberField(view, 'followersCount'),
    follows_count: numberField(view, 'followsCount'),
    posts_count: numberField(view, 'postsCount'),
    avatar: stringField(view, 'avatar') ?? null,
    banner: stringField(view, 'banner') ?? null,
    did: stringField(view, 'did') ?? did,
  };
}

/** The PDS's own URL of a blob referenced by a record (`{ $type: 'blob', ref: { $link }, ... }`). */
function blobUrl(pds: string, did: string, blob: unknown): string | null {
  if (!blob || typeof blob !== 'object') return null;
  const ref = (blob as JsonObject).ref;
  const cid = ref && typeof ref === 'object' ? stringField(ref as JsonObject, '$link') : undefined;
  if (!cid) return null;
  const url = new URL(`${pds}/xrpc/com.atproto.sync.getBlob`);
  url.searchParams.set('did', did);
  url.searchParams.set('cid', cid);
  return url.toString();
}

async function profileRecord(client: XrpcClient, pds: string, did: string): Promise<JsonObject> {
  try {
    const out = await xrpc(client, {
      base: pds,
      nsid: 'com.atproto.repo.getRecord',
      method: 'GET',
      context: 'public',
      params: { repo: did, collection: 'app.bsky.actor.profile', rkey: 'self' },
    });
    const value = out.value;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {};
  } catch (err) {
    // An account that never set a profile has no record.
    if (err instanceof PlatformError && err.kind === 'not_found') return {};
    throw err;
  }
}

async function fromRepo(client: XrpcClient, pds: string, accessToken: string): Promise<BlueskyProfileSlice> {
  const session = await xrpc(client, {
    base: pds,
    nsid: 'com.atproto.server.getSession',
    method: 'GET',
    context: 'access',
    bearer: accessToken,
  });
  const did = stringField(session, 'did');
  if (!did) throw blueskyFailure('transient', 'Bluesky answered getSession without a DID');
  const record = await profileRecord(client, pds, did);
  return {
    handle: stringField(session, 'handle') ?? did,
    display_name: stringField(record, 'displayName') ?? null,
    description: stringField(record, 'description') ?? null,
    // Counts live in the AppView's index, not in the repo.
    followers_count: null,
    follows_count: null,
    posts_count: null,
    avatar: blobUrl(pds, did, record.avatar),
    banner: blobUrl(pds, did, record.banner),
    did,
  };
}

export async function fetchAccount(client: XrpcClient, service: string, tokens: TokenSet): Promise<AccountIdentity> {
  const pds = pdsOf(tokens, service);
  const did = tokens.extra?.did;
  if (did) {
    try {
      const view = await xrpc(client, {
        base: pds,
        nsid: 'app.bsky.actor.getProfile',
        method: 'GET',
        context: 'access',
        bearer: tokens.accessToken,
        params: { actor: did },
      });
      return identityOf(fromProfileView(view, did));
    } catch (err) {
      if (!(err instanceof PlatformError) || FINAL.has(err.kind)) throw err;
      client.logger.debug(
        { platform: 'bluesky', kind: err.kind, code: err.code, status: err.status },
        'getProfile unavailable; reading the profile record',
      );
    }
  }
  return identityOf(await fromRepo(client, pds, tokens.accessToken));
}

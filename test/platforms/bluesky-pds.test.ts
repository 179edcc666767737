// The Bluesky adapter against a real PDS (@atproto/pds) and PLC directory on 127.0.0.1: the reference server's
// sessions, error shapes and identity documents, not our simulator's reading of them. Never skipped: if the PDS
// cannot start, the suite fails.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blueskyAdapter, isAppPassword, jwtClaims } from '../../src/platforms/bluesky/index.ts';
import { configuredHttp } from '../helpers/platform-http.ts';
import { PlatformError } from '../../src/platforms/types.ts';
import type { AppPasswordAuth, PlatformAdapter } from '../../src/platforms/types.ts';
import { startLocalPds } from '../helpers/bluesky-pds.ts';
import type { LocalPds, PdsAccount } from '../helpers/bluesky-pds.ts';

let pds: LocalPds;
let adapter: PlatformAdapter;
let auth: AppPasswordAuth;
/** Shared by tests that need only a session of their own (each login is a separate session). */
let shared: { account: PdsAccount; appPassword: string };

async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PlatformError);
  return err as PlatformError;
}

async function accountWithAppPassword(name?: string): Promise<{ account: PdsAccount; appPassword: string }> {
  const account = await pds.createAccount();
  return { account, appPassword: await pds.createAppPassword(account, name) };
}

beforeAll(async () => {
  pds = await startLocalPds();
  console.info(`[bluesky-pds] PDS ${pds.url} + PLC ${pds.plcUrl} listening after ${pds.startMs} ms`);
  const logger = pino({ level: 'silent' });
  adapter = blueskyAdapter({
    http: configuredHttp(logger, { service: pds.url, plc: pds.plcUrl }, { timeoutMs: 15_000 }),
    // Nothing else: the entryway is the local PDS and the PLC directory is the in-memory one.
    config: { urls: { service: pds.url, plc: pds.plcUrl } },
    clock: () => new Date(),
    logger,
  });
  if (adapter.auth.kind !== 'app_password') throw new Error('Bluesky must use app-password auth');
  auth = adapter.auth;
  shared = await accountWithAppPassword();
});

afterAll(async () => {
  await pds?.stop();
});

describe('bluesky adapter (real local PDS)', () => {
  it('logs in with handle + app password through the PDS (handle) and the PLC directory (DID)', async () => {
    const { account, appPassword } = await accountWithAppPassword();
    expect(isAppPassword(appPassword)).toBe(true);
    const before = Date.now();
    const tokens = await auth.login({ handle: account.handle, appPassword });
    expect(tokens.extra).toEqual({ did: account.did, handle: account.handle, pds: pds.url });
    expect(tokens.scopes).toEqual(['com.atproto.appPass']);
    // The reference PDS: access 120 min, refresh 90 days.
    const accessLeft = (tokens.expiresAt?.getTime() ?? 0) - before;
    expect(accessLeft).toBeGreaterThan(119 * 60_000);
    expect(accessLeft).toBeLessThanOrEqual(121 * 60_000);
    expect((tokens.refreshExpiresAt?.getTime() ?? 0) - before).toBeGreaterThan(89 * 86_400_000);
    expect(jwtClaims(tokens.accessToken)?.sub).toBe(account.did);
  });

  it('fetches the account from the repo when the PDS has no AppView, and sees profile edits', async () => {
    const { account, appPassword } = await accountWithAppPassword();
    const tokens = await auth.login({ handle: account.handle, appPassword });
    const bare = await adapter.fetchAccount(tokens);
    expect(bare).toEqual({
      id: account.did,
      name: account.handle,
      username: account.handle,
      avatarUrl: null,
      destinations: [],
      slice: {
        profile: {
          handle: account.handle,
          display_name: null,
          description: null,
          followers_count: null,
          follows_count: null,
          posts_count: null,
          avatar: null,
          banner: null,
          did: account.did,
        },
      },
    });

    const agent = await pds.agentFor(account);
    await agent.com.atproto.repo.putRecord({
      repo: account.did,
      collection: 'app.bsky.actor.profile',
      rkey: 'self',
      record: { $type: 'app.bsky.actor.profile', displayName: 'Local Alice', description: 'Posting from a test PDS' },
    });
    const edited = await adapter.fetchAccount(tokens);
    expect(edited.name).toBe('Local Alice');
    expect(edited.slice).toMatchObject({
      profile: { display_name: 'Local Alice', description: 'Posting from a test PDS' },
    });
  });

  it('refreshes with rotation, and the new session works', async () => {
    const { account, appPassword } = shared;
    const first = await auth.login({ handle: account.handle, appPassword });
    const second = await auth.refresh(first);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    // Access JWTs carry no unique id: one minted in the same second as the last can be identical, so no check here.
    expect(second.extra).toEqual(first.extra);
    expect((await adapter.fetchAccount(second)).id).toBe(account.did);
    const third = await auth.refresh(second);
    expect(third.refreshToken).not.toBe(second.refreshToken);
  });

  it('revokes the session (deleteSession); a refresh afterwards needs a reconnect', async () => {
    const { account, appPassword } = shared;
    const tokens = await auth.login({ handle: account.handle, appPassword });
    await auth.revoke?.(tokens);
    const err = await failure(auth.refresh(tokens));
    expect(err.kind).toBe('reauth_required');
    expect(err.status).toBe(400);
    expect(['ExpiredToken', 'InvalidToken']).toContain(err.code);
    expect(err.message).not.toContain(String(tokens.refreshToken));
    await expect(auth.revoke?.(tokens)).resolves.toBeUndefined();
  });

  it('ends sessions of a revoked app password: the refresh needs a reconnect', async () => {
    const name = 'herald-revoked';
    const { account, appPassword } = await accountWithAppPassword(name);
    const tokens = await auth.login({ handle: account.handle, appPassword });
    const agent = await pds.agentFor(account);
    await agent.com.atproto.server.revokeAppPassword({ name });
    expect((await failure(auth.refresh(tokens))).kind).toBe('reauth_required');
  });

  it('reads a refresh token presented as an access token as auth_expired, and the reverse as reauth_required', async () => {
    const { account, appPassword } = shared;
    const tokens = await auth.login({ handle: account.handle, appPassword });
    const wrongAccess = await failure(adapter.fetchAccount({ ...tokens, accessToken: String(tokens.refreshToken) }));
    expect(wrongAccess.kind).toBe('auth_expired');
    expect(wrongAccess.code).toBe('InvalidToken');
    const wrongRefresh = await failure(auth.refresh({ ...tokens, refreshToken: tokens.accessToken }));
    expect(wrongRefresh.kind).toBe('reauth_required');
  });

  it('refuses a wrong app password with a clear message', async () => {
    const { account } = shared;
    const err = await failure(auth.login({ handle: account.handle, appPassword: 'aaaa-bbbb-cccc-dddd' }));
    expect(err.kind).toBe('invalid_content');
    expect(err.status).toBe(401);
    expect(err.code).toBe('AuthenticationRequired');
    expect(err.message).toBe('Invalid handle or app password');
  });

  it('refuses a handle the PDS does not host', async () => {
    const err = await failure(auth.login({ handle: `nobody${pds.handleDomain}`, appPassword: 'aaaa-bbbb-cccc-dddd' }));
    expect(err.kind).toBe('invalid_content');
    expect(err.message).toContain(`nobody${pds.handleDomain}`);
  });

  it('passes the account password through too: the network accepts it, policing it is the route’s job', async () => {
    const account = await pds.createAccount();
    const tokens = await auth.login({ handle: account.handle, appPassword: account.password });
    expect(tokens.extra?.did).toBe(account.did);
    // A full-access session, not an app-password one: the route must refuse this shape up front.
    expect(tokens.scopes).toEqual(['com.atproto.access']);
    expect(isAppPassword(account.password)).toBe(false);
  });
});

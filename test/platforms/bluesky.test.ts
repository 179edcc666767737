// The Bluesky adapter against the sandbox simulator over real HTTP: login through handle → DID → PDS resolution,
// profile, refresh rotation, expiry, throttling and revocation, with the simulator's clock under the test's control.
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blueskyAdapter, blueskyUrls, BLUESKY_DEFAULT_URLS, isAppPassword } from '../../src/platforms/bluesky/index.ts';
import { configuredHttp } from '../helpers/platform-http.ts';
import { PlatformError } from '../../src/platforms/types.ts';
import type { AppPasswordAuth, PlatformAdapter, TokenSet } from '../../src/platforms/types.ts';
import { sandboxBaseUrls, sandboxPlugin } from '../../src/sandbox/index.ts';
import { freePort } from '../helpers/net.ts';

const START = Date.parse('2026-11-21T12:00:00.000Z');
const APP_PASSWORD = 'abcd-ef12-gh34-ij56';

let now = START;
let app: FastifyInstance;
let root: string;
let adapter: PlatformAdapter;
let auth: AppPasswordAuth;

async function fault(operation: string, kind: string): Promise<void> {
  const res = await fetch(`${root}/_faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ platform: 'bluesky', operation, fault: kind }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
}

async function requests(): Promise<{ method: string; path: string; body: unknown; query: Record<string, unknown> }[]> {
  const res = await fetch(`${root}/_state?platform=bluesky`);
  const body = (await res.json()) as {
    bluesky: { requests: { method: string; path: string; body: unknown; query: Record<string, unknown> }[] };
  };
  return body.bluesky.requests;
}

async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PlatformError);
  return err as PlatformError;
}

beforeAll(async () => {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  app = Fastify({ logger: false });
  await app.register(sandboxPlugin, { prefix: '/sandbox', publicUrl, now: () => new Date(now) });
  await app.listen({ host: '127.0.0.1', port });
  root = `${publicUrl}/sandbox`;
  const logger = pino({ level: 'silent' });
  adapter = blueskyAdapter({
    http: configuredHttp(logger, sandboxBaseUrls(publicUrl).bluesky, { timeoutMs: 10_000 }),
    config: { urls: sandboxBaseUrls(publicUrl).bluesky },
    clock: () => new Date(now),
    logger,
  });
  if (adapter.auth.kind !== 'app_password') throw new Error('Bluesky must use app-password auth');
  auth = adapter.auth;
});

afterAll(async () => {
  await app?.close();
});

beforeEach(async () => {
  now = START;
  await fetch(`${root}/_state`, { method: 'DELETE' });
});

describe('bluesky adapter (sandbox)', () => {
  it('describes itself', () => {
    expect(adapter.platform).toBe('bluesky');
    expect(adapter.configured).toBe(true);
    expect(adapter.capabilities).toEqual({
      postTypes: ['text', 'image', 'carousel', 'video'],
      text: { max: 300, unit: 'graphemes', maxBytes: 3000 },
      asyncProcessing: true,
    });
    expect(blueskyUrls({})).toEqual(BLUESKY_DEFAULT_URLS);
    expect(blueskyUrls({ service: 'http://127.0.0.1:9/pds/' }).service).toBe('http://127.0.0.1:9/pds');
  });

  it('recognises the app-password format', () => {
    expect(isAppPassword('abcd-ef12-gh34-ij56')).toBe(true);
    expect(isAppPassword('ABCD-ef12-gh34-ij56')).toBe(false);
    expect(isAppPassword('abcd-ef12-gh34')).toBe(false);
    expect(isAppPassword('abcd-ef12-gh34-ij56-')).toBe(false);
    expect(isAppPassword(' abcd-ef12-gh34-ij56')).toBe(false);
    expect(isAppPassword('correct horse battery staple')).toBe(false);
    expect(isAppPassword(undefined)).toBe(false);
  });

  it('logs in: resolves the handle and the DID document, then creates the session on that PDS', async () => {
    const tokens = await auth.login({ handle: '@Alice.Sandbox', appPassword: APP_PASSWORD });
    const service = sandboxBaseUrls(new URL(root).origin).bluesky.service;
    expect(tokens.extra?.did).toMatch(/^did:plc:[a-z2-7]{24}$/);
    expect(tokens.extra).toEqual({ did: tokens.extra?.did, handle: 'alice.sandbox', pds: service });
    expect(tokens.accessToken.split('.')).toHaveLength(3);
    expect(tokens.refreshToken).not.toBe(tokens.accessToken);
    expect(tokens.expiresAt?.getTime()).toBe(START + 7200 * 1000);
    expect(tokens.refreshExpiresAt?.getTime()).toBe(START + 90 * 86400 * 1000);
    expect(tokens.scopes).toEqual(['com.atproto.appPass']);

    const calls = (await requests()).map((r) => `${r.method} ${r.path.replace(/^\/sandbox\/bluesky/, '')}`);
    expect(calls).toEqual([
      'GET /xrpc/com.atproto.identity.resolveHandle',
      `GET /plc/${tokens.extra?.did}`,
      'POST /xrpc/com.atproto.server.createSession',
    ]);
    const session = (await requests())[2];
    expect(session?.body).toEqual({ identifier: tokens.extra?.did, password: APP_PASSWORD });
  });

  it('refuses a wrong password with a clear message that repeats no secret', async () => {
    const err = await failure(auth.login({ handle: 'alice.sandbox', appPassword: 'not-an-app-password' }));
    expect(err.kind).toBe('invalid_content');
    expect(err.status).toBe(401);
    expect(err.code).toBe('AuthenticationRequired');
    expect(err.message).toBe('Invalid handle or app password');
    expect(err.message).not.toContain('not-an-app-password');
  });

  it('refuses unknown and malformed handles', async () => {
    const unknown = await failure(auth.login({ handle: 'alice.bsky.social', appPassword: APP_PASSWORD }));
    expect(unknown.kind).toBe('invalid_content');
    expect(unknown.message).toContain('alice.bsky.social');
    const malformed = await failure(auth.login({ handle: 'not a handle', appPassword: APP_PASSWORD }));
    expect(malformed.kind).toBe('invalid_content');
    const email = await failure(auth.login({ handle: 'alice@example.com', appPassword: APP_PASSWORD }));
    expect(email.kind).toBe('invalid_content');
    // Neither malformed identifier reached the network.
    expect((await requests()).map((r) => r.query.handle)).toEqual(['alice.bsky.social']);
  });

  it('fetches the account: DID as id, the profile slice of contract-gaps §5, no destinations', async () => {
    const tokens = await auth.login({ handle: 'bob.sandbox', appPassword: APP_PASSWORD });
    const account = await adapter.fetchAccount(tokens);
    expect(account.id).toBe(tokens.extra?.did);
    expect(account.username).toBe('bob.sandbox');
    expect(account.name).toBe('Bob Sandbox');
    expect(account.destinations).toEqual([]);
    expect(account.avatarUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(account.slice).toEqual({
      profile: {
        handle: 'bob.sandbox',
        display_name: 'Bob Sandbox',
        description: 'Skeeting from the Herald sandbox.',
        followers_count: 321,
        follows_count: 123,
        posts_count: 0,
        avatar: account.avatarUrl,
        banner: null,
        did: tokens.extra?.did,
      },
    });
  });

  it('refreshes with rotation; the replaced refresh token dies after its grace period', async () => {
    const first = await auth.login({ handle: 'carol.sandbox', appPassword: APP_PASSWORD });
    now += 60_000;
    const second = await auth.refresh(first);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(second.extra).toEqual(first.extra);
    expect(second.expiresAt?.getTime()).toBe(now + 7200 * 1000);
    expect((await adapter.fetchAccount(second)).id).toBe(first.extra?.did);

    now += 2 * 3600 * 1000 + 1000;
    const stale = await failure(auth.refresh(first));
    expect(stale.kind).toBe('reauth_required');
    const third = await auth.refresh(second);
    expect(third.refreshToken).not.toBe(second.refreshToken);
  });

  it('reads ExpiredToken (HTTP 400) as auth_expired; a refresh then makes the call succeed', async () => {
    const tokens = await auth.login({ handle: 'dave.sandbox', appPassword: APP_PASSWORD });
    await fault('profile', 'expire_token');
    const err = await failure(adapter.fetchAccount(tokens));
    expect(err.kind).toBe('auth_expired');
    expect(err.status).toBe(400);
    expect(err.code).toBe('ExpiredToken');
    expect(err.retryable).toBe(true);
    // The fault expired that access token for good.
    expect((await failure(adapter.fetchAccount(tokens))).kind).toBe('auth_expired');
    const fresh = await auth.refresh(tokens);
    expect((await adapter.fetchAccount(fresh)).username).toBe('dave.sandbox');
  });

  it('reads the access token expiring with time as auth_expired', async () => {
    const tokens = await auth.login({ handle: 'erin.sandbox', appPassword: APP_PASSWORD });
    now += 7200 * 1000 + 1000;
    expect((await failure(adapter.fetchAccount(tokens))).kind).toBe('auth_expired');
    expect((await adapter.fetchAccount(await auth.refresh(tokens))).username).toBe('erin.sandbox');
  });

  it('reads an expired refresh token as reauth_required', async () => {
    const tokens = await auth.login({ handle: 'frank.sandbox', appPassword: APP_PASSWORD });
    await fault('refresh', 'expire_token');
    const err = await failure(auth.refresh(tokens));
    expect(err.kind).toBe('reauth_required');
    expect(err.code).toBe('ExpiredToken');
  });

  it('reads 429 as rate_limited with the wait from RateLimit-Reset', async () => {
    await fault('token', 'rate_limit');
    const err = await failure(auth.login({ handle: 'gina.sandbox', appPassword: APP_PASSWORD }));
    expect(err.kind).toBe('rate_limited');
    expect(err.status).toBe(429);
    expect(err.code).toBe('RateLimitExceeded');
    expect(err.retryAfterSeconds).toBe(300);

    const tokens = await auth.login({ handle: 'gina.sandbox', appPassword: APP_PASSWORD });
    await fault('profile', 'rate_limit');
    const limited = await failure(adapter.fetchAccount(tokens));
    expect(limited.kind).toBe('rate_limited');
    expect(limited.retryAfterSeconds).toBe(300);
  });

  it('reads 5xx as transient', async () => {
    await fault('resolve', 'server_error');
    const err = await failure(auth.login({ handle: 'hank.sandbox', appPassword: APP_PASSWORD }));
    expect(err.kind).toBe('transient');
    expect(err.status).toBe(500);
  });

  it('revokes the session: refresh then needs a reconnect, and revoking again is harmless', async () => {
    const tokens: TokenSet = await auth.login({ handle: 'ivy.sandbox', appPassword: APP_PASSWORD });
    await auth.revoke?.(tokens);
    const calls = await requests();
    expect(calls.at(-1)?.path).toMatch(/\/xrpc\/com\.atproto\.server\.deleteSession$/);
    const err = await failure(auth.refresh(tokens));
    expect(err.kind).toBe('reauth_required');
    expect(err.message).not.toContain(String(tokens.refreshToken));
    await expect(auth.revoke?.(tokens)).resolves.toBeUndefined();
  });
});

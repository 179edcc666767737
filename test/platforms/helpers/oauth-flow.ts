// Shared harness for adapter tests: a real Fastify app serving the sandbox on 127.0.0.1 at its own origin, a clock
// shared by the simulators and the adapter (so expiry can be driven without waiting), and helpers for the browser
// half of an OAuth flow and for asserting PlatformErrors.
import { createHash, randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { expect } from 'vitest';
import { PlatformHttp } from '../../../src/platforms/http.ts';
import { configuredHttp } from '../../helpers/platform-http.ts';
import { PlatformError } from '../../../src/platforms/types.ts';
import type { AdapterDeps, OAuth2Auth, PlatformAdapter, PlatformErrorKind, TokenSet } from '../../../src/platforms/types.ts';
import { SANDBOX_APPS, sandboxBaseUrls, sandboxPlugin } from '../../../src/sandbox/index.ts';
import type { OAuthPlatform, Platform } from '../../../src/sandbox/index.ts';
import { freePort } from '../../helpers/net.ts';

export const START = Date.parse('2026-11-21T12:00:00.000Z');

// The sandbox must know its public URL before it is registered, so the port is reserved first and reused.
export interface OAuthSandbox {
  app: FastifyInstance;
  publicUrl: string;
  /** Herald's callback route for a network, as registered with the simulators. */
  callback(platform: Platform): string;
  /** The clock both the simulators and the adapters under test read. */
  clock: () => Date;
  advance(seconds: number): void;
  /** Arms a fault through POST /sandbox/_faults; fails the test when the sandbox refuses it. */
  fault(body: { platform: Platform; operation: string; fault: string; times?: number }): Promise<void>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function startOAuthSandbox(): Promise<OAuthSandbox> {
  let now = START;
  const clock = (): Date => new Date(now);
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const app = Fastify({ logger: false });
  await app.register(sandboxPlugin, { prefix: '/sandbox', publicUrl, now: clock });
  await app.listen({ host: '127.0.0.1', port });
  return {
    app,
    publicUrl,
    callback: (platform) => `${publicUrl}/${platform}/oauth/callback`,
    clock,
    advance: (seconds) => {
      now += seconds * 1000;
    },
    fault: async (body) => {
      const res = await fetch(`${publicUrl}/sandbox/_faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`sandbox refused fault ${JSON.stringify(body)}: ${await res.text()}`);
    },
    reset: async () => {
      now = START;
      await fetch(`${publicUrl}/sandbox/_state`, { method: 'DELETE' });
    },
    close: () => app.close(),
  };
}

/** Deps for an adapter pointed at the sandbox with the built-in app credentials. */
export function sandboxDeps(sb: OAuthSandbox, platform: OAuthPlatform): AdapterDeps {
  const logger = pino({ level: 'silent' });
  const app = SANDBOX_APPS[platform];
  const urls = sandboxBaseUrls(sb.publicUrl)[platform];
  return {
    http: configuredHttp(logger, urls),
    config: { clientId: app.clientId, clientSecret: app.clientSecret, urls },
    clock: sb.clock,
    logger,
  };
}

export interface Canned {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * Deps for an adapter whose HTTP answers are canned, for wire details the sandbox cannot produce: one JSON answer for
 * every request, or one chosen per request. No base URL overrides, so the adapter aims at the real hosts.
 */
export function cannedDeps(
  answer: Canned | ((url: URL, init: RequestInit) => Canned),
  opts: { clientId?: string; clientSecret?: string; clock?: () => Date } = {},
): AdapterDeps {
  const logger = pino({ level: 'silent' });
  const fetch = async (input: string, init: RequestInit): Promise<Response> => {
    const a = typeof answer === 'function' ? answer(new URL(input), init) : answer;
    return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'content-type': 'application/json', ...a.headers } });
  };
  return {
    http: new PlatformHttp({ logger, fetch }),
    config: { clientId: opts.clientId ?? 'ci', clientSecret: opts.clientSecret ?? 'cs', urls: {} },
    clock: opts.clock ?? (() => new Date()),
    logger,
  };
}

export interface Approval {
  code: string;
  state: string | null;
  location: URL;
}

/** Plays the user: opens the authorize URL, approves at once and reads the redirect back to Herald. */
export async function approve(authorizeUrl: string, headers: Record<string, string> = {}): Promise<Approval> {
  const res = await fetch(authorizeUrl, { redirect: 'manual', headers: { 'x-sandbox-auto-approve': '1', ...headers } });
  if (res.status !== 302) throw new Error(`authorize answered ${res.status}, not a redirect: ${await res.text()}`);
  const location = new URL(res.headers.get('location') ?? '');
  const code = location.searchParams.get('code');
  if (!code) throw new Error(`no code in the redirect: ${location.searchParams.get('error') ?? 'unknown error'}`);
  return { code, state: location.searchParams.get('state'), location };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The whole browser round trip of a connect on the sandbox, with PKCE where the network takes it. */
export async function connectThrough(sb: OAuthSandbox, adapter: PlatformAdapter, state = 'st-pub'): Promise<TokenSet> {
  const auth = adapter.auth as OAuth2Auth;
  const redirectUri = sb.callback(adapter.platform);
  const pkce = auth.pkce ? pkcePair() : undefined;
  const { code } = await approve(auth.authorizeUrl({ state, redirectUri, ...(pkce ? { codeChallenge: pkce.challenge } : {}) }));
  return auth.exchangeCode({ code, redirectUri, ...(pkce ? { codeVerifier: pkce.verifier } : {}) });
}

/**
 * Awaits a call that must fail with a PlatformError of `kind`, and checks that none of `secrets` leaks into the
 * error's message (or its cause's).
 */
export async function expectPlatformError(
  call: Promise<unknown>,
  kind: PlatformErrorKind,
  secrets: readonly (string | null | undefined)[] = [],
): Promise<PlatformError> {
  const err: unknown = await call.then(
    () => new Error(`expected a ${kind} PlatformError, but the call succeeded`),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PlatformError);
  const pe = err as PlatformError;
  expect({ kind: pe.kind, message: pe.message }).toMatchObject({ kind });
  const text = `${pe.message} ${pe.cause instanceof Error ? pe.cause.message : ''}`;
  for (const s of secrets) if (s) expect(text).not.toContain(s);
  return pe;
}

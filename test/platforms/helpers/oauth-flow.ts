// Shared harness for adapter tests: a real Fastify app serving the sandbox on 127.0.0.1 at its own origin, a clock
// shared by the simulators and the adapter (so expiry can be driven without waiting), and helpers for the browser
// half of an OAuth flow and for asserting PlatformErrors.
import { createHash, randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { expect } from 'vitest';
import { PlatformHttp } from '../../../src/platforms/http.ts';
import { PlatformError } from '../../../src/platforms/types.ts';
import type { AdapterDeps, PlatformErrorKind } from '../../../src/platforms/types.ts';
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
  return {
    http: new PlatformHttp({ logger }),
    config: { clientId: app.clientId, clientSecret: app.clientSecret, urls: sandboxBaseUrls(sb.publicUrl)[platform] },
    clock: sb.clock,
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

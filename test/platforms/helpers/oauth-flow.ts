// Shared helpers for adapter tests (the sandbox itself starts with test/helpers/sandbox.ts): adapter deps aimed at the
// sandbox with its clock (so expiry can be driven without waiting) or at canned answers, the browser half of an OAuth
// flow, and assertions on PlatformErrors.
import { createHash, randomBytes } from 'node:crypto';
import pino from 'pino';
import { expect } from 'vitest';
import { PlatformHttp } from '../../../src/platforms/http.ts';
import { configuredHttp } from '../../helpers/platform-http.ts';
import { PlatformError } from '../../../src/platforms/types.ts';
import type {
  AdapterDeps,
  OAuth2Auth,
  PlatformAdapter,
  PlatformErrorKind,
  TokenSet,
} from '../../../src/platforms/types.ts';
import { SANDBOX_APPS, sandboxBaseUrls } from '../../../src/sandbox/index.ts';
import type { OAuthPlatform } from '../../../src/sandbox/index.ts';
import type { TestSandbox } from '../../helpers/sandbox.ts';

/** Deps for an adapter pointed at the sandbox with the built-in app credentials. */
export function sandboxDeps(sb: TestSandbox, platform: OAuthPlatform): AdapterDeps {
  const logger = pino({ level: 'silent' });
  const app = SANDBOX_APPS[platform];
  const urls = sandboxBaseUrls(sb.publicUrl)[platform];
  return {
    http: configuredHttp(logger, urls),
    config: {
      clientId: app.clientId,
      clientSecret: app.clientSecret,
      urls,
      ...(app.settings ? { settings: app.settings } : {}),
    },
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
    return new Response(JSON.stringify(a.body), {
      status: a.status,
      headers: { 'content-type': 'application/json', ...a.headers },
    });
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
export async function connectThrough(sb: TestSandbox, adapter: PlatformAdapter, state = 'st-pub'): Promise<TokenSet> {
  const auth = adapter.auth as OAuth2Auth;
  const redirectUri = sb.callback(adapter.platform);
  const pkce = auth.pkce ? pkcePair() : undefined;
  const { code } = await approve(
    auth.authorizeUrl({ state, redirectUri, ...(pkce ? { codeChallenge: pkce.challenge } : {}) }),
  );
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

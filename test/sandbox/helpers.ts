// Test harness: a real Fastify server with the sandbox mounted at /sandbox on 127.0.0.1, a controllable clock,
// and small helpers to drive OAuth flows over real HTTP.
import { createHash, randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { sandboxPlugin } from '../../src/sandbox/index.ts';
import type { Platform } from '../../src/sandbox/index.ts';
import { freePort } from '../helpers/net.ts';

export const START = Date.parse('2026-11-21T12:00:00.000Z');

export interface Sandbox {
  app: FastifyInstance;
  publicUrl: string;
  /** `${publicUrl}/sandbox` */
  root: string;
  url(platform: Platform, path: string): string;
  callback(platform: Platform): string;
  advance(seconds: number): void;
  nowMs(): number;
  state(platform: Platform): Promise<Record<string, unknown[]>>;
  fault(body: Record<string, unknown>): Promise<Response>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function startSandbox(opts: { latencyMs?: number } = {}): Promise<Sandbox> {
  let now = START;
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const app = Fastify({ logger: false });
  await app.register(sandboxPlugin, {
    prefix: '/sandbox',
    publicUrl,
    now: () => new Date(now),
    ...(opts.latencyMs !== undefined ? { latencyMs: opts.latencyMs } : {}),
  });
  // Stands in for Herald's own callback routes, so redirect-following clients finish the chain.
  app.get('/:platform/oauth/callback', async (req) => ({ callback: true, query: req.query }));
  await app.listen({ host: '127.0.0.1', port });
  const root = `${publicUrl}/sandbox`;
  return {
    app,
    publicUrl,
    root,
    url: (platform, path) => `${root}/${platform}${path}`,
    callback: (platform) => `${publicUrl}/${platform}/oauth/callback`,
    advance: (seconds) => {
      now += seconds * 1000;
    },
    nowMs: () => now,
    state: async (platform) => {
      const res = await fetch(`${root}/_state?platform=${platform}`);
      const body = (await res.json()) as Record<string, Record<string, unknown[]>>;
      return body[platform] ?? {};
    },
    fault: (body) =>
      fetch(`${root}/_faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    reset: async () => {
      now = START;
      await fetch(`${root}/_state`, { method: 'DELETE' });
    },
    close: () => app.close(),
  };
}

export function withQuery(url: string, params: Record<string, string | undefined>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}

/** GET an authorize URL with the auto-approve header and return the redirect target. */
export async function autoApprove(url: string, headers: Record<string, string> = {}): Promise<URL> {
  const res = await fetch(url, { redirect: 'manual', headers: { 'x-sandbox-auto-approve': '1', ...headers } });
  if (res.status !== 302) throw new Error(`expected 302 from authorize, got ${res.status}: ${await res.text()}`);
  return new URL(res.headers.get('location') ?? '');
}

export async function codeFrom(url: string, headers: Record<string, string> = {}): Promise<string> {
  const location = await autoApprove(url, headers);
  const code = location.searchParams.get('code');
  if (!code) throw new Error(`no code in ${location.toString()}`);
  return code;
}

export function postForm(url: string, params: Record<string, string | undefined>, headers: Record<string, string> = {}): Promise<Response> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) body.set(k, v);
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
}

export function bearer(token: string, extra: Record<string, string> = {}): { headers: Record<string, string> } {
  return { headers: { authorization: `Bearer ${token}`, ...extra } };
}

export function basic(user: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Loosely typed JSON for assertions: every access is `Json | undefined`, strings via String(). */
export type Json = { [key: string]: Json };

export async function json(res: Response): Promise<Json> {
  return (await res.json()) as Json;
}

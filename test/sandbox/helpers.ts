// Small helpers to drive the simulators' OAuth flows and APIs over real HTTP (the sandbox itself starts with
// test/helpers/sandbox.ts).
import { createHash, randomBytes } from 'node:crypto';

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

export function postForm(
  url: string,
  params: Record<string, string | undefined>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) body.set(k, v);
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
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

// Driving the connect flows end to end against the sandbox, as a user's browser would.
import { expect } from 'vitest';
import type { Harness, TestUser } from '../helpers/harness.ts';
import { asUser } from '../helpers/harness.ts';

export const OAUTH_NETWORKS = [
  'linkedin',
  'facebook',
  'instagram',
  'threads',
  'tiktok',
  'youtube',
  'pinterest',
] as const;
export const APP_PASSWORD = 'abcd-efgh-ijkl-mnop';

export async function authUrl(h: Harness, u: TestUser, platform: string): Promise<string> {
  const res = await h.req({
    method: 'POST',
    url: '/unified/oauth/url',
    headers: asUser(u),
    payload: { platform: [platform] },
  });
  expect(res.statusCode, res.body).toBe(200);
  const r = res.json().results[platform];
  expect(r, JSON.stringify(res.json())).toMatchObject({ success: true, auth_url: expect.stringMatching(/^http/) });
  return r.auth_url as string;
}

/** Approves at the simulator and follows the redirects to Herald's callback page. */
export async function approve(url: string): Promise<{ status: number; html: string; ok: boolean }> {
  const res = await fetch(url, { headers: { 'x-sandbox-auto-approve': '1' }, redirect: 'follow' });
  const html = await res.text();
  return { status: res.status, html, ok: html.includes('data-status="success"') };
}

/** Approves at the simulator but stops at the redirect to Herald, returning the callback URL. */
export async function callbackUrlOf(url: string): Promise<URL> {
  const res = await fetch(url, { headers: { 'x-sandbox-auto-approve': '1' }, redirect: 'manual' });
  const location = res.headers.get('location');
  if (!location) throw new Error(`no redirect from ${url}: ${res.status} ${await res.text()}`);
  return new URL(location.replace(/#_$/, ''));
}

export async function connect(h: Harness, u: TestUser, platform: string): Promise<void> {
  if (platform === 'bluesky') {
    const res = await h.req({
      method: 'POST',
      url: '/unified/oauth/url',
      headers: asUser(u),
      payload: { platform: ['bluesky'], handle: `u${u.userId.slice(0, 6)}.sandbox`, app_password: APP_PASSWORD },
    });
    expect(res.json().results.bluesky, res.body).toMatchObject({ success: true, auth_url: null });
    return;
  }
  const done = await approve(await authUrl(h, u, platform));
  expect(done.ok, done.html).toBe(true);
}

export async function sandboxState(
  h: Harness,
): Promise<Record<string, { tokens?: unknown[]; requests?: { path: string; method: string }[] }>> {
  return (await (await fetch(`${h.url}/sandbox/_state`)).json()) as Record<
    string,
    { tokens?: unknown[]; requests?: { path: string; method: string }[] }
  >;
}

export async function fault(
  h: Harness,
  body: { platform: string; operation: string; fault: string; error?: string; times?: number },
): Promise<void> {
  const res = await fetch(`${h.url}/sandbox/_faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`fault ${JSON.stringify(body)}: ${res.status} ${await res.text()}`);
}

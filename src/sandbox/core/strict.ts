// Strict modes: opt-in behaviours that make the simulators as unforgiving as the real networks where the default
// sandbox is lenient (an unaudited YouTube project, daily quotas, rate limits, a LinkedIn app without refresh tokens,
// media URLs a network's servers cannot reach). `POST /sandbox/_config {"strict": {<mode>: true}}` or
// `{"strict": "all"}`. A simulator reads a mode with `strictOn(ctx, mode)`; usage counters live in the store, so
// `DELETE /_state` forgets them. See docs/sandbox.md "Strict modes".
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { blockedRangeOf } from '../../net/ip-policy.ts';
import type { FastifyRequest } from 'fastify';
import type { SandboxContext } from './context.ts';
import { bearerToken } from './http.ts';
import type { TokenRecord } from './types.ts';
import type { PlatformSlice } from './store.ts';

export const STRICT_MODES = [
  // TikTok's modes are declared here (so `_config` accepts them and "all" includes them); the TikTok simulator reads
  // them with strictOn(ctx, 'tiktok_…').
  'tiktok_unaudited',
  'tiktok_privacy_options',
  'tiktok_unverified_domain',
  'youtube_unaudited',
  'youtube_quota',
  'rate_limits',
  'linkedin_no_refresh',
  'public_media_only',
] as const;
export type StrictMode = (typeof STRICT_MODES)[number];

export function noStrictModes(): Record<StrictMode, boolean> {
  return Object.fromEntries(STRICT_MODES.map((m) => [m, false])) as Record<StrictMode, boolean>;
}

/**
 * `all`, `none`/empty, or a comma-separated list of modes (HERALD_SANDBOX_STRICT); throws on an unknown mode so a
 * typo does not silently run the lenient simulators.
 */
export function parseStrictModes(raw: string | undefined): 'all' | StrictMode[] {
  const value = (raw ?? '').trim();
  if (value === 'all') return 'all';
  if (value === '' || value === 'none') return [];
  const modes = value
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  const unknown = modes.filter((m) => !(STRICT_MODES as readonly string[]).includes(m));
  if (unknown.length)
    throw new Error(`unknown strict sandbox mode(s): ${unknown.join(', ')}; known: all, ${STRICT_MODES.join(', ')}`);
  return modes as StrictMode[];
}

export function strictOn(ctx: SandboxContext, mode: StrictMode): boolean {
  return ctx.store.config.strict[mode] === true;
}

/**
 * Counts one use (of `weight`) against `limit` in the bucket `key` (the caller puts the window in the key: a day, a
 * minute…). False, without counting, when the use would go over the limit.
 */
export function spend(ctx: SandboxContext, key: string, limit: number, weight = 1): boolean {
  const used = ctx.store.usage.get(key) ?? 0;
  if (used + weight > limit) return false;
  ctx.store.usage.set(key, used + weight);
  return true;
}

export function usageOf(ctx: SandboxContext, key: string): number {
  return ctx.store.usage.get(key) ?? 0;
}

/**
 * The calendar date (YYYY-MM-DD) of the sandbox clock in a time zone: the key of a quota that resets at its midnight.
 */
export function dayIn(ctx: SandboxContext, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    ctx.now(),
  );
}

export type MediaReach = { ok: true } | { ok: false; reason: 'private_address' | 'unreachable'; detail: string };

/**
 * What a network's media fetcher makes of a URL under `public_media_only`: a host that resolves to a loopback or
 * private address is refused (unless `_config.publicHosts` names it: the test host standing in for a public one), and
 * the URL must answer 2xx to a GET. Without the mode every URL passes, as before.
 */
export async function reachMedia(ctx: SandboxContext, raw: string): Promise<MediaReach> {
  if (!strictOn(ctx, 'public_media_only')) return { ok: true };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'unreachable', detail: 'not a URL' };
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!ctx.store.config.publicHosts.includes(url.host) && !ctx.store.config.publicHosts.includes(host)) {
    let addresses: string[];
    try {
      addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
    } catch {
      return { ok: false, reason: 'unreachable', detail: `${host} does not resolve` };
    }
    const blocked = addresses.map((a) => blockedRangeOf(a)).find((r) => r !== null);
    if (blocked)
      return {
        ok: false,
        reason: 'private_address',
        detail: `${host} is a ${blocked} address, not reachable from the network's servers`,
      };
  }
  try {
    const res = await fetch(url, {
      method: 'GET',
      redirect: 'follow',
      signal: AbortSignal.any([ctx.closing, AbortSignal.timeout(10_000)]),
    });
    await res.body?.cancel();
    if (res.status < 200 || res.status >= 300)
      return { ok: false, reason: 'unreachable', detail: `HTTP ${res.status}` };
  } catch (err) {
    return { ok: false, reason: 'unreachable', detail: err instanceof Error ? err.message : String(err) };
  }
  return { ok: true };
}

/** The stored token a call presents as `Authorization: Bearer` (or `access_token`), for keying a member's quota. */
export function presentedToken(req: FastifyRequest, slice: PlatformSlice): TokenRecord | undefined {
  const raw = bearerToken(req) ?? (req.query as Record<string, unknown> | undefined)?.access_token;
  return typeof raw === 'string' ? slice.tokens.get(raw) : undefined;
}

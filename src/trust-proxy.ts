// HERALD_TRUST_PROXY: which reverse proxies' X-Forwarded-* headers to believe, parsed (for config.ts)
// and turned into Fastify's trustProxy option, so request.ip is the client's address behind them.
import { isIP } from 'node:net';
import { z } from 'zod';

/** Named ranges proxy-addr understands, besides addresses and CIDRs. */
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function validProxyEntry(entry: string): boolean {
  if (PROXY_RANGES.has(entry)) return true;
  const [addr = '', prefix, ...rest] = entry.split('/');
  const family = isIP(addr);
  if (!family || rest.length) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/**
 * Which proxies' X-Forwarded-* headers to believe. `true` trusts the one proxy in front (the client is
 * the address it appended last), a number N trusts N proxies in a chain, a list trusts those addresses.
 */
export type TrustProxy = false | { hops: number } | { addresses: string[] };

export const trustProxyEnv = z.string().transform((v, ctx): TrustProxy => {
  const s = v.trim().toLowerCase();
  if (['', '0', 'false', 'no', 'off'].includes(s)) return false;
  if (['true', 'yes', 'on'].includes(s)) return { hops: 1 };
  if (/^\d{1,2}$/.test(s)) return { hops: Number(s) };
  const addresses = s
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const bad = addresses.filter((a) => !validProxyEntry(a));
  if (bad.length) {
    ctx.addIssue({
      code: 'custom',
      message: `expected true/false, a number of proxies, or addresses/CIDRs (bad: ${bad.join(', ')})`,
    });
    return z.NEVER;
  }
  return { addresses };
});

/** Fastify's trustProxy: a hop count becomes "trust the first N addresses from the socket inwards". */
export function fastifyTrustProxy(t: TrustProxy): boolean | string[] | ((addr: string, hop: number) => boolean) {
  if (!t) return false;
  if ('addresses' in t) return t.addresses;
  return (_addr, hop) => hop < t.hops;
}

// A resolver stand-in for the outbound address policy: names exist only in the table, so no test touches real DNS.
import type { HostLookup } from '../../src/net/outbound-policy.ts';

export function lookupFrom(names: Record<string, string[]>): HostLookup {
  return async (hostname) => {
    const found = names[hostname];
    if (!found) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

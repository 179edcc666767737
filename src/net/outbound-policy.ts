// The one address policy for outbound requests whose destination a user can influence: media URL imports, a Bluesky
// account's PDS and did:web host, and every redirect a network call follows. A destination is resolved, refused when
// any of its addresses is not a public unicast one, and the connection goes only to the addresses that were checked,
// so DNS cannot answer differently between the check and the connect. Hosts the operator configured are exempt.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { blockedRangeOf } from './ip-policy.ts';

export type UrlRefusalReason =
  | 'invalid_url'
  | 'scheme'
  | 'credentials'
  | 'dns'
  | 'address'
  | 'redirects'
  | 'status'
  | 'content_type'
  | 'too_large'
  | 'timeout'
  | 'network'
  | 'aborted';

export class UrlRefusedError extends Error {
  readonly reason: UrlRefusalReason;
  /** The URL of the hop that was refused (after redirects), when known. */
  readonly url: string | undefined;
  /** The HTTP status, for reason "status". */
  readonly status: number | undefined;

  constructor(
    reason: UrlRefusalReason,
    message: string,
    extra: { url?: string | undefined; status?: number | undefined; cause?: unknown } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'UrlRefusedError';
    this.reason = reason;
    this.url = extra.url;
    this.status = extra.status;
  }
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface OutboundPolicyOptions {
  /** Host names trusted on any port, even on private addresses and over plain http (HERALD_FETCH_ALLOW_HOSTS). */
  trustedHosts?: readonly string[];
  /** Origins (scheme, host and port) trusted the same way: the base URLs the operator configured. */
  trustedOrigins?: readonly string[];
  /** Permit http: to every host (addresses are still checked). */
  allowHttp?: boolean;
  /** Resolver override, for tests. Defaults to the system resolver. */
  lookup?: HostLookup;
}

/** What a connection is about to reach; the shape undici hands its connector. */
interface Destination {
  protocol: string;
  hostname: string;
  port: string | number;
}

const defaultLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

function normalizeHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[(.*)\]$/, '$1');
}

function originKey(protocol: string, hostname: string, port: string | number): string {
  return `${protocol}//${normalizeHost(hostname)}:${String(port) || DEFAULT_PORTS[protocol] || ''}`;
}

// The refusal never says what a name resolved to or which private range it is in: that would map the server's network.
const NOT_PUBLIC = 'the host is not a publicly reachable address';

export class OutboundPolicy {
  readonly #hosts: ReadonlySet<string>;
  readonly #origins: ReadonlySet<string>;
  readonly #allowHttp: boolean;
  readonly #lookup: HostLookup;

  constructor(opts: OutboundPolicyOptions = {}) {
    this.#hosts = new Set((opts.trustedHosts ?? []).map(normalizeHost));
    const origins = new Set<string>();
    for (const raw of opts.trustedOrigins ?? []) {
      if (!URL.canParse(raw)) continue;
      const u = new URL(raw);
      origins.add(originKey(u.protocol, u.hostname, u.port));
    }
    this.#origins = origins;
    this.#allowHttp = opts.allowHttp ?? false;
    this.#lookup = opts.lookup ?? defaultLookup;
  }

  trusted(d: Destination): boolean {
    return this.#hosts.has(normalizeHost(d.hostname)) || this.#origins.has(originKey(d.protocol, d.hostname, d.port));
  }

  /** The scheme and credential rules, for a URL about to be requested (and each redirect target). */
  checkUrl(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch (cause) {
      throw new UrlRefusedError('invalid_url', 'not a valid absolute URL', { cause });
    }
    const refused = this.#schemeRefusal(url);
    if (refused) throw new UrlRefusedError(refused.reason, refused.message, { url: url.href });
    if (url.username || url.password) {
      // The URL is left out of the error so the password does not end up in logs.
      throw new UrlRefusedError('credentials', 'URLs with embedded credentials are refused');
    }
    return url;
  }

  #schemeRefusal(d: Destination): UrlRefusedError | null {
    if (d.protocol === 'https:' || (d.protocol === 'http:' && (this.#allowHttp || this.trusted(d)))) return null;
    return new UrlRefusedError('scheme', `only https URLs are fetched (got ${d.protocol})`);
  }

  /** Every address of a host, each checked unless the host is trusted; an IP literal is its own answer. */
  async resolve(hostname: string, check: boolean): Promise<readonly ResolvedAddress[]> {
    const host = normalizeHost(hostname);
    const literal = isIP(host);
    let candidates: readonly ResolvedAddress[];
    if (literal) {
      candidates = [{ address: host, family: literal }];
    } else {
      try {
        candidates = await this.#lookup(host);
      } catch (cause) {
        throw new UrlRefusedError('dns', `could not resolve ${host}`, { cause });
      }
    }
    if (candidates.length === 0) throw new UrlRefusedError('dns', `${host} has no addresses`);
    // Every answer is checked, not just the one used: a mixed answer is a rebinding attempt or a misconfiguration.
    if (check && candidates.some(({ address }) => blockedRangeOf(address) !== null)) {
      throw new UrlRefusedError('address', `${host}: ${NOT_PUBLIC}`);
    }
    return candidates;
  }

  /** A resolver for net.connect that hands the socket only addresses that passed the check. */
  #pinnedLookup(check: boolean): LookupFunction {
    return (hostname, options, callback) => {
      this.resolve(hostname, check).then(
        (all) => {
          const family = options.family === 4 || options.family === 6 ? options.family : 0;
          const usable = family ? all.filter((a) => a.family === family) : all;
          const [first] = usable;
          if (!first) return callback(new UrlRefusedError('dns', `${hostname} has no IPv${family} address`), '', 0);
          if (options.all)
            callback(
              null,
              usable.map((a) => ({ address: a.address, family: a.family })),
            );
          else callback(null, first.address, first.family);
        },
        (err: Error) => callback(err, '', 0),
      );
    };
  }

  /**
   * An undici connector applying the policy to every connection it opens, redirects included: trusted destinations
   * connect as configured, others must be https and resolve only to public addresses.
   */
  connector(opts: { ca?: string | Buffer | (string | Buffer)[]; timeoutMs?: number } = {}): buildConnector.connector {
    const shared = {
      ...(opts.ca === undefined ? {} : { ca: opts.ca }),
      ...(opts.timeoutMs === undefined ? {} : { timeout: opts.timeoutMs }),
    };
    const checked = buildConnector({ ...shared, lookup: this.#pinnedLookup(true) });
    const trusted = buildConnector({ ...shared, lookup: this.#pinnedLookup(false) });
    return (options, callback) => {
      if (this.trusted(options)) return trusted(options, callback);
      const host = normalizeHost(options.hostname);
      // net.connect does not resolve IP literals, so the lookup above never sees them.
      const refusal =
        this.#schemeRefusal(options) ??
        (isIP(host) && blockedRangeOf(host) !== null ? new UrlRefusedError('address', `${host}: ${NOT_PUBLIC}`) : null);
      if (refusal) {
        // Not synchronously: undici is still inside its connect bookkeeping when it calls us.
        queueMicrotask(() => callback(refusal, null));
        return;
      }
      checked(options, callback);
    };
  }

  /** A connection pool whose every connection goes through the policy. */
  agent(opts: { ca?: string | Buffer | (string | Buffer)[]; timeoutMs?: number; connections?: number } = {}): Agent {
    return new Agent({
      connect: this.connector(opts),
      ...(opts.connections === undefined ? {} : { connections: opts.connections }),
      allowH2: false,
    });
  }
}

/** The policy's refusal somewhere in an error's cause chain (fetch wraps connector errors in "fetch failed"). */
export function refusalIn(err: unknown): UrlRefusedError | undefined {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof UrlRefusedError) return e;
  }
  return undefined;
}

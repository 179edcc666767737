// Fetching a feed: a GET through the outbound address policy (every connection, redirects included, is resolved and
// checked when it opens), a few redirects at most, one deadline for the whole fetch, a cap on the body's size, and the
// validators of the last answer sent back (If-None-Match, If-Modified-Since) so an unchanged feed costs a 304.
import { request, type Agent } from 'undici';
import { refusalIn, type OutboundPolicy, UrlRefusedError } from '../net/outbound-policy.ts';

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects?: number;
}

export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

export type FetchOutcome =
  | { status: 'not_modified' }
  | { status: 'ok'; body: string; etag: string | null; lastModified: string | null };

/** A fetch that failed, in words a member can read (no address, no stack). */
export class FeedFetchError extends Error {
  override readonly name = 'FeedFetchError';
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const ACCEPT =
  'application/feed+json, application/atom+xml, application/rss+xml, application/json;q=0.9, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5';

/** Drops a body not read to the end; undici reports its destruction as an error nobody needs. */
function discard(body: { on(event: 'error', fn: () => void): unknown; destroy(): unknown }): void {
  body.on('error', () => {});
  body.destroy();
}

const header = (v: string | string[] | undefined): string | null => (Array.isArray(v) ? (v[0] ?? null) : (v ?? null));

export class FeedFetcher {
  readonly #policy: OutboundPolicy;
  readonly #agent: Agent;
  readonly #limits: Required<FetchLimits>;

  constructor(policy: OutboundPolicy, limits: FetchLimits) {
    this.#policy = policy;
    this.#limits = { maxRedirects: 3, ...limits };
    this.#agent = policy.agent({ timeoutMs: limits.timeoutMs, connections: 4 });
  }

  /** The URL checks a feed gets when it is saved: scheme, no credentials, and an address that is public. */
  async check(raw: string): Promise<URL> {
    const url = this.#policy.checkUrl(raw);
    if (!this.#policy.trusted({ protocol: url.protocol, hostname: url.hostname, port: url.port })) {
      await this.#policy.resolve(url.hostname, true);
    }
    return url;
  }

  async fetch(raw: string, v: Validators): Promise<FetchOutcome> {
    const deadline = AbortSignal.timeout(this.#limits.timeoutMs);
    try {
      let url = this.#policy.checkUrl(raw);
      for (let hop = 0; ; hop++) {
        const res = await request(url, {
          dispatcher: this.#agent,
          method: 'GET',
          signal: deadline,
          headers: {
            'user-agent': 'Herald-Feeds/1',
            accept: ACCEPT,
            'accept-encoding': 'identity',
            ...(v.etag ? { 'if-none-match': v.etag } : {}),
            ...(v.lastModified ? { 'if-modified-since': v.lastModified } : {}),
          },
        });
        const location = header(res.headers.location);
        if (REDIRECTS.has(res.statusCode) && location) {
          discard(res.body);
          if (hop >= this.#limits.maxRedirects)
            throw new FeedFetchError(`more than ${this.#limits.maxRedirects} redirects`);
          url = this.#policy.checkUrl(new URL(location, url).href);
          continue;
        }
        if (res.statusCode === 304) {
          discard(res.body);
          return { status: 'not_modified' };
        }
        if (res.statusCode < 200 || res.statusCode > 299) {
          discard(res.body);
          throw new FeedFetchError(`the feed answered HTTP ${res.statusCode}`);
        }
        const length = header(res.headers['content-length']);
        if (length && /^\d+$/.test(length) && Number(length) > this.#limits.maxBytes) {
          discard(res.body);
          throw new FeedFetchError(`the feed is larger than ${this.#limits.maxBytes} bytes`);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of res.body as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > this.#limits.maxBytes) {
            discard(res.body);
            throw new FeedFetchError(`the feed is larger than ${this.#limits.maxBytes} bytes`);
          }
          chunks.push(chunk);
        }
        return {
          status: 'ok',
          body: Buffer.concat(chunks).toString('utf8'),
          etag: header(res.headers.etag),
          lastModified: header(res.headers['last-modified']),
        };
      }
    } catch (err) {
      if (err instanceof FeedFetchError) throw err;
      if (deadline.aborted) throw new FeedFetchError(`no complete answer within ${this.#limits.timeoutMs / 1000} s`);
      const refusal = err instanceof UrlRefusedError ? err : refusalIn(err);
      if (refusal) throw new FeedFetchError(`refused by the outbound address policy: ${refusal.message}`);
      const code = (err as { code?: unknown }).code;
      throw new FeedFetchError(`could not fetch the feed${typeof code === 'string' ? ` (${code})` : ''}`);
    }
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}

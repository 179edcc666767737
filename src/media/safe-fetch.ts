// The single path through which Herald downloads a URL that a user gave it.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
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

  constructor(reason: UrlRefusalReason, message: string, extra: { url?: string; status?: number; cause?: unknown } = {}) {
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

export interface SafeFetchOptions {
  /** Largest body accepted, checked against Content-Length first and then on the streamed bytes. */
  maxBytes: number;
  /** Total time for DNS, connecting, redirects and reading the whole body. */
  timeoutMs: number;
  maxRedirects: number;
  /** Hostnames trusted even when they resolve to private addresses, and allowed over plain http. */
  allowHosts?: readonly string[];
  /** Permit http: for every host (addresses are still checked). */
  allowHttp?: boolean;
  /** Resolver override, for tests. Defaults to the system resolver. */
  lookup?: HostLookup;
  /** CA certificates to trust instead of Node's bundled roots, for tests or private PKI. */
  ca?: string | Buffer | readonly (string | Buffer)[];
  /** When set, the final response's Content-Type must pass this check. */
  acceptContentType?: (contentType: string | undefined) => boolean;
  userAgent?: string;
  signal?: AbortSignal;
}

export interface SafeFetchResult {
  /** The URL that finally answered, after redirects. */
  url: string;
  status: number;
  headers: Dispatcher.ResponseData['headers'];
  contentType: string | undefined;
  contentLength: number | undefined;
  /** The body, cut off with a "too_large" error past maxBytes and a "timeout" error past timeoutMs. */
  body: Readable;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const defaultLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

function normalizeHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, '').replace(/^\[(.*)\]$/, '$1');
}

function checkUrl(raw: string, allowHosts: ReadonlySet<string>, allowHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch (cause) {
    throw new UrlRefusedError('invalid_url', 'not a valid absolute URL', { cause });
  }
  const host = normalizeHost(url.hostname);
  const trusted = allowHosts.has(host);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && (allowHttp || trusted))) {
    throw new UrlRefusedError('scheme', `only https URLs are fetched (got ${url.protocol})`, { url: url.href });
  }
  if (url.username || url.password) {
    // The URL is left out of the error so the password does not end up in logs.
    throw new UrlRefusedError('credentials', 'URLs with embedded credentials are refused');
  }
  return url;
}

async function resolveTarget(url: URL, opts: SafeFetchOptions, allowHosts: ReadonlySet<string>, signal: AbortSignal): Promise<ResolvedAddress> {
  const host = normalizeHost(url.hostname);
  const trusted = allowHosts.has(host);
  let candidates: readonly ResolvedAddress[];
  const literal = isIP(host);
  if (literal) {
    candidates = [{ address: host, family: literal }];
  } else {
    try {
      candidates = await abortable((opts.lookup ?? defaultLookup)(host), signal);
    } catch (cause) {
      if (cause instanceof UrlRefusedError) throw cause;
      throw new UrlRefusedError('dns', `could not resolve ${host}`, { url: url.href, cause });
    }
    if (candidates.length === 0) throw new UrlRefusedError('dns', `${host} has no addresses`, { url: url.href });
  }
  if (!trusted) {
    // Every answer is checked, not just the one used: a mixed answer is a rebinding attempt or a misconfiguration.
    for (const { address } of candidates) {
      const blocked = blockedRangeOf(address);
      if (blocked) {
        throw new UrlRefusedError('address', `${host} resolves to a ${blocked} address`, { url: url.href });
      }
    }
  }
  const [first] = candidates;
  if (!first) throw new UrlRefusedError('dns', `${host} has no addresses`, { url: url.href });
  return first;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** An agent whose every connection goes to the address that was checked, whatever DNS says later. */
function pinnedAgent(target: ResolvedAddress, opts: SafeFetchOptions): Agent {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const ca = opts.ca === undefined ? undefined : Array.isArray(opts.ca) ? [...opts.ca] : (opts.ca as string | Buffer);
  return new Agent({
    connect: { lookup: pinned, ...(ca === undefined ? {} : { ca }), timeout: opts.timeoutMs },
    connections: 1,
    allowH2: false,
  });
}

class ByteLimit extends Transform {
  #seen = 0;
  readonly #max: number;
  readonly #url: string;

  constructor(max: number, url: string) {
    super();
    this.#max = max;
    this.#url = url;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback): void {
    this.#seen += chunk.length;
    if (this.#seen > this.#max) {
      callback(new UrlRefusedError('too_large', `response body exceeds ${this.#max} bytes`, { url: this.#url }));
      return;
    }
    callback(null, chunk);
  }
}

function parseLength(value: string | string[] | undefined): number | undefined {
  return typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function release(agent: Agent): void {
  agent.destroy().catch(() => {});
}

/** Drops a body we will not read; undici reports its destruction as an error nobody needs. */
function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

function toRefusal(err: unknown, signal: AbortSignal, url: string): UrlRefusedError {
  if (err instanceof UrlRefusedError) return err;
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof UrlRefusedError) return reason;
    return new UrlRefusedError('aborted', 'the download was cancelled', { url, cause: err });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new UrlRefusedError('network', `could not download: ${message}`, { url, cause: err });
}

export async function safeFetch(rawUrl: string, opts: SafeFetchOptions): Promise<SafeFetchResult> {
  if (!(opts.maxBytes > 0) || !(opts.timeoutMs > 0) || !(opts.maxRedirects >= 0)) {
    throw new TypeError('safeFetch: maxBytes and timeoutMs must be positive and maxRedirects non-negative');
  }
  const allowHosts = new Set((opts.allowHosts ?? []).map(normalizeHost));
  const controller = new AbortController();
  const { signal } = controller;
  const timer = setTimeout(() => {
    controller.abort(new UrlRefusedError('timeout', `the download took longer than ${opts.timeoutMs} ms`, { url: rawUrl }));
  }, opts.timeoutMs);
  const onCallerAbort = (): void => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onCallerAbort, { once: true });
  if (opts.signal?.aborted) onCallerAbort();
  const cleanup = (): void => {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCallerAbort);
  };

  let url: URL | undefined;
  try {
    url = checkUrl(rawUrl, allowHosts, opts.allowHttp ?? false);
    for (let redirects = 0; ; redirects++) {
      const target = await resolveTarget(url, opts, allowHosts, signal);
      const agent = pinnedAgent(target, opts);
      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(url, {
          dispatcher: agent,
          method: 'GET',
          signal,
          headers: { 'user-agent': opts.userAgent ?? 'Herald media fetcher', 'accept-encoding': 'identity', accept: '*/*' },
        });
      } catch (err) {
        release(agent);
        throw toRefusal(err, signal, url.href);
      }
      const { statusCode, headers, body } = response;
      const location = headerValue(headers.location);
      if (REDIRECT_STATUSES.has(statusCode) && location) {
        discard(body);
        release(agent);
        if (redirects >= opts.maxRedirects) {
          throw new UrlRefusedError('redirects', `more than ${opts.maxRedirects} redirects`, { url: url.href });
        }
        let next: string;
        try {
          next = new URL(location, url).href;
        } catch (cause) {
          throw new UrlRefusedError('invalid_url', 'redirect to an invalid URL', { url: url.href, cause });
        }
        url = checkUrl(next, allowHosts, opts.allowHttp ?? false);
        continue;
      }
      const fail = (error: UrlRefusedError): never => {
        discard(body);
        release(agent);
        throw error;
      };
      if (statusCode < 200 || statusCode > 299) {
        fail(new UrlRefusedError('status', `the server answered ${statusCode}`, { url: url.href, status: statusCode }));
      }
      const contentType = headerValue(headers['content-type']);
      if (opts.acceptContentType && !opts.acceptContentType(contentType)) {
        fail(new UrlRefusedError('content_type', `content type ${contentType ?? '(none)'} is not accepted`, { url: url.href }));
      }
      const contentLength = parseLength(headers['content-length']);
      if (contentLength !== undefined && contentLength > opts.maxBytes) {
        fail(new UrlRefusedError('too_large', `Content-Length ${contentLength} exceeds ${opts.maxBytes} bytes`, { url: url.href }));
      }
      const finalUrl = url.href;
      const limited = new ByteLimit(opts.maxBytes, finalUrl);
      body.on('error', (err) => limited.destroy(toRefusal(err, signal, finalUrl)));
      signal.addEventListener('abort', () => limited.destroy(toRefusal(signal.reason, signal, finalUrl)), { once: true });
      limited.on('close', () => {
        cleanup();
        if (!body.destroyed) discard(body);
        release(agent);
      });
      body.pipe(limited);
      return { url: finalUrl, status: statusCode, headers, contentType, contentLength, body: limited };
    }
  } catch (err) {
    cleanup();
    throw toRefusal(err, signal, url?.href ?? rawUrl);
  }
}

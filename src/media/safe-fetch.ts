// The single path through which Herald downloads a URL that a user gave it; the address rules are the shared
// outbound policy (../net/outbound-policy.ts).
import type { Readable } from 'node:stream';
import { Transform, type TransformCallback } from 'node:stream';
import { request, type Agent, type Dispatcher } from 'undici';
import { OutboundPolicy, UrlRefusedError, type HostLookup } from '../net/outbound-policy.ts';

export {
  UrlRefusedError,
  type HostLookup,
  type ResolvedAddress,
  type UrlRefusalReason,
} from '../net/outbound-policy.ts';

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
  if (err instanceof UrlRefusedError) {
    // The policy refuses inside the connector, which does not know the URL being fetched.
    return err.url ? err : new UrlRefusedError(err.reason, err.message, { url, status: err.status, cause: err.cause });
  }
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof UrlRefusedError) return reason;
    return new UrlRefusedError('aborted', 'the download was cancelled', { url, cause: err });
  }
  // Only the error code: the messages of connection errors name the address that was dialled.
  const code = (err as { code?: unknown } | null)?.code;
  return new UrlRefusedError('network', `could not download${typeof code === 'string' ? ` (${code})` : ''}`, {
    url,
    cause: err,
  });
}

export async function safeFetch(rawUrl: string, opts: SafeFetchOptions): Promise<SafeFetchResult> {
  if (!(opts.maxBytes > 0) || !(opts.timeoutMs > 0) || !(opts.maxRedirects >= 0)) {
    throw new TypeError('safeFetch: maxBytes and timeoutMs must be positive and maxRedirects non-negative');
  }
  const policy = new OutboundPolicy({
    trustedHosts: opts.allowHosts ?? [],
    allowHttp: opts.allowHttp ?? false,
    ...(opts.lookup ? { lookup: opts.lookup } : {}),
  });
  const controller = new AbortController();
  const { signal } = controller;
  const timer = setTimeout(() => {
    controller.abort(
      new UrlRefusedError('timeout', `the download took longer than ${opts.timeoutMs} ms`, { url: rawUrl }),
    );
  }, opts.timeoutMs);
  const onCallerAbort = (): void => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onCallerAbort, { once: true });
  if (opts.signal?.aborted) onCallerAbort();
  const cleanup = (): void => {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCallerAbort);
  };

  const ca = opts.ca === undefined ? undefined : Array.isArray(opts.ca) ? [...opts.ca] : (opts.ca as string | Buffer);
  // One connection per origin; every connection, redirects included, is resolved and checked by the policy.
  const agent = policy.agent({ ...(ca === undefined ? {} : { ca }), timeoutMs: opts.timeoutMs, connections: 1 });
  let url: URL | undefined;
  try {
    url = policy.checkUrl(rawUrl);
    for (let redirects = 0; ; redirects++) {
      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(url, {
          dispatcher: agent,
          method: 'GET',
          signal,
          headers: {
            'user-agent': opts.userAgent ?? 'Herald media fetcher',
            'accept-encoding': 'identity',
            accept: '*/*',
          },
        });
      } catch (err) {
        throw toRefusal(err, signal, url.href);
      }
      const { statusCode, headers, body } = response;
      const location = headerValue(headers.location);
      if (REDIRECT_STATUSES.has(statusCode) && location) {
        discard(body);
        if (redirects >= opts.maxRedirects) {
          throw new UrlRefusedError('redirects', `more than ${opts.maxRedirects} redirects`, { url: url.href });
        }
        let next: string;
        try {
          next = new URL(location, url).href;
        } catch (cause) {
          throw new UrlRefusedError('invalid_url', 'redirect to an invalid URL', { url: url.href, cause });
        }
        url = policy.checkUrl(next);
        continue;
      }
      const fail = (error: UrlRefusedError): never => {
        discard(body);
        throw error;
      };
      if (statusCode < 200 || statusCode > 299) {
        fail(new UrlRefusedError('status', `the server answered ${statusCode}`, { url: url.href, status: statusCode }));
      }
      const contentType = headerValue(headers['content-type']);
      if (opts.acceptContentType && !opts.acceptContentType(contentType)) {
        fail(
          new UrlRefusedError('content_type', `content type ${contentType ?? '(none)'} is not accepted`, {
            url: url.href,
          }),
        );
      }
      const contentLength = parseLength(headers['content-length']);
      if (contentLength !== undefined && contentLength > opts.maxBytes) {
        fail(
          new UrlRefusedError('too_large', `Content-Length ${contentLength} exceeds ${opts.maxBytes} bytes`, {
            url: url.href,
          }),
        );
      }
      const finalUrl = url.href;
      const limited = new ByteLimit(opts.maxBytes, finalUrl);
      body.on('error', (err) => limited.destroy(toRefusal(err, signal, finalUrl)));
      signal.addEventListener('abort', () => limited.destroy(toRefusal(signal.reason, signal, finalUrl)), {
        once: true,
      });
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
    release(agent);
    throw toRefusal(err, signal, url?.href ?? rawUrl);
  }
}

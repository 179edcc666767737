// The HTTP client every adapter uses: timeouts, JSON and form bodies, Retry-After parsing, and logs
// that never carry tokens (query values of credential parameters and all headers are left out). Every
// connection it opens, redirects included, goes through the outbound address policy.
import type { Logger } from 'pino';
import { fetch as undiciFetch, type Agent, type RequestInit as UndiciRequestInit } from 'undici';
import type { Platform } from './slugs.ts';
import { OutboundPolicy, refusalIn } from '../net/outbound-policy.ts';
import { PlatformError } from './types.ts';

export interface HttpRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  url: string;
  query?: Record<string, string | number | boolean | undefined | null>;
  headers?: Record<string, string>;
  /** Sent as application/json. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string | undefined>;
  /** Raw body (uploads). */
  body?: RequestInit['body'];
  timeoutMs?: number;
  /** For redirects the adapter wants to see (e.g. Location of an upload session). */
  redirect?: 'follow' | 'manual';
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  url: string;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  data: unknown;
}

/** Receives the policy's connection pool as `dispatcher` in init. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

// undici's own fetch: Node's built-in one cannot use a dispatcher from the undici package.
const policedFetch: FetchLike = (input, init) =>
  undiciFetch(input, init as UndiciRequestInit) as unknown as Promise<Response>;

const SECRET_PARAMS =
  /^(access_token|refresh_token|client_secret|code|code_verifier|input_token|fb_exchange_token|key|token|upload_token|upload_id|signature|x-amz-signature|x-amz-credential)$/i;

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    for (const k of [...u.searchParams.keys()]) if (SECRET_PARAMS.test(k)) u.searchParams.set(k, '[redacted]');
    return u.toString();
  } catch {
    return '[unparseable url]';
  }
}

/** Seconds to wait, from a Retry-After header (delta-seconds or an HTTP date). */
export function retryAfterSeconds(headers: Headers, now: Date = new Date()): number | undefined {
  const v = headers.get('retry-after');
  if (!v) return undefined;
  if (/^\d+$/.test(v.trim())) return Number(v.trim());
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

export class PlatformHttp {
  readonly #logger: Logger;
  readonly #timeoutMs: number;
  readonly #fetch: FetchLike;
  readonly #pool: Agent;

  /** Without a policy nothing is trusted: every host must be public and reached over https. */
  constructor(opts: { logger: Logger; timeoutMs?: number; fetch?: FetchLike; policy?: OutboundPolicy }) {
    this.#logger = opts.logger;
    this.#timeoutMs = opts.timeoutMs ?? 30_000;
    this.#fetch = opts.fetch ?? policedFetch;
    this.#pool = (opts.policy ?? new OutboundPolicy()).agent();
  }

  async close(): Promise<void> {
    await this.#pool.destroy();
  }

  async request(platform: Platform, req: HttpRequest): Promise<HttpResponse> {
    const url = new URL(req.url);
    for (const [k, v] of Object.entries(req.query ?? {}))
      if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    const headers = new Headers(req.headers);
    let body: RequestInit['body'] | undefined = req.body;
    if (req.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(req.json);
    } else if (req.form) {
      headers.set('content-type', 'application/x-www-form-urlencoded');
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries(req.form)) if (v !== undefined) form.set(k, v);
      body = form.toString();
    }
    if (body instanceof FormData) {
      // Node's FormData is foreign to undici's fetch: encode it here (its files are in memory already).
      const encoded = new Response(body);
      headers.set('content-type', encoded.headers.get('content-type') ?? 'multipart/form-data');
      body = new Uint8Array(await encoded.arrayBuffer());
    }
    const method = req.method ?? (body === undefined ? 'GET' : 'POST');
    const started = performance.now();
    const target = url.toString();
    let res: Response;
    try {
      res = await this.#fetch(target, {
        method,
        headers,
        body,
        redirect: req.redirect ?? 'follow',
        signal: AbortSignal.timeout(req.timeoutMs ?? this.#timeoutMs),
        dispatcher: this.#pool,
        // Streams as request bodies need half-duplex mode in fetch.
        ...(body && typeof body === 'object' && 'getReader' in body ? { duplex: 'half' } : {}),
      } as RequestInit);
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      const refused = refusalIn(err);
      const error = timedOut ? 'timeout' : refused ? `refused: ${refused.reason}` : (err as Error).message;
      this.#logger.warn(
        { platform, method, url: redactUrl(target), ms: Math.round(performance.now() - started), error },
        'platform request failed',
      );
      // A destination the policy refuses stays refused; a name that does not resolve may be a passing DNS failure.
      if (refused && refused.reason !== 'dns') {
        throw new PlatformError(
          platform,
          'invalid_content',
          `The ${platform} server address is not allowed: Herald connects only to public https addresses`,
          { cause: err },
        );
      }
      throw new PlatformError(
        platform,
        'transient',
        timedOut ? `${platform} did not answer in time` : `${platform} could not be reached`,
        { cause: err },
      );
    }
    const text = await res.text().catch(() => '');
    let data: unknown;
    if (text && (res.headers.get('content-type') ?? '').includes('json')) {
      try {
        data = JSON.parse(text);
      } catch {
        data = undefined;
      }
    }
    this.#logger.debug(
      { platform, method, url: redactUrl(target), status: res.status, ms: Math.round(performance.now() - started) },
      'platform request',
    );
    return { status: res.status, headers: res.headers, url: res.url || target, text, data };
  }
}

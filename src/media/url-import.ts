// Downloads a user-given URL into a temp file through safeFetch (SSRF rules, size and time limits).
import { AppError } from '../errors.ts';
import { safeFetch, UrlRefusedError, type HostLookup } from './safe-fetch.ts';
import { TooLargeError, type TempFiles } from './temp.ts';
import { formatBytes } from './records.ts';

export interface UrlImportSettings {
  allowHosts: readonly string[];
  timeoutMs: number;
  maxRedirects: number;
  /** Tests: a resolver stand-in and the CA of a local HTTPS server. */
  lookup?: HostLookup;
  ca?: string | Buffer;
}

export interface Downloaded {
  path: string;
  size: number;
  /** The last path segment of the URL, as a file name hint. */
  name: string | null;
  url: string;
}

function nameFrom(url: string): string | null {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop();
    return last ? decodeURIComponent(last).slice(0, 255) : null;
  } catch {
    return null;
  }
}

// Fixed texts only: the refusals' own messages name resolved addresses and private ranges. A name that resolves to a
// private address and one that does not resolve get the same answer, so neither maps the server's network.
const WHY: Record<Exclude<UrlRefusedError['reason'], 'too_large' | 'status'>, string> = {
  invalid_url: 'not a valid absolute URL',
  scheme: 'only https:// URLs are accepted',
  credentials: 'URLs with a user name or password are not accepted',
  address: 'the host is not a public internet address',
  dns: 'the host is not a public internet address',
  redirects: 'too many redirects',
  timeout: 'the download took too long',
  content_type: 'the content type is not accepted',
  network: 'the download failed',
  aborted: 'the download was cancelled',
};

/** A refusal as the 422 the interface expects, at `loc` (e.g. body.media_url). */
export function urlRefusal(err: UrlRefusedError | TooLargeError, loc: (string | number)[], maxBytes: number): AppError {
  if (err instanceof TooLargeError || err.reason === 'too_large') {
    return new AppError('validation', [
      { loc, msg: `URL refused: the file is larger than the ${formatBytes(maxBytes)} limit.`, type: 'url_refused' },
    ]);
  }
  const why = err.reason === 'status' ? `the server answered ${err.status ?? 'with an error'}` : WHY[err.reason];
  return new AppError('validation', [{ loc, msg: `URL refused: ${why}.`, type: 'url_refused' }]);
}

/**
 * One time limit for every URL one request imports (HERALD_FETCH_REQUEST_DEADLINE_SECONDS): each URL
 * also has its own timeout, but without this a request naming many slow URLs would last their sum.
 * Call done() when the request's imports are over.
 */
export class ImportDeadline {
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;
  readonly #seconds: number;

  constructor(seconds: number) {
    this.#seconds = seconds;
    this.#timer = setTimeout(
      () => this.#controller.abort(new UrlRefusedError('timeout', 'the request deadline passed')),
      seconds * 1000,
    );
    this.#timer.unref();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The refusal of a URL that was cut off (or never started) because the deadline passed, or undefined. */
  refusal(err: UrlRefusedError, loc: (string | number)[]): AppError | undefined {
    if (!this.#controller.signal.aborted || (err.reason !== 'timeout' && err.reason !== 'aborted')) return undefined;
    return new AppError('validation', [
      {
        loc,
        msg: `URL refused: the download took too long: the request's URL imports took longer than ${this.#seconds} s.`,
        type: 'url_refused',
      },
    ]);
  }

  done(): void {
    clearTimeout(this.#timer);
  }
}

export async function downloadToTemp(
  temp: TempFiles,
  url: string,
  maxBytes: number,
  s: UrlImportSettings,
  loc: (string | number)[],
  deadline?: ImportDeadline,
): Promise<Downloaded> {
  try {
    const res = await safeFetch(url, {
      maxBytes,
      timeoutMs: s.timeoutMs,
      ...(deadline ? { signal: deadline.signal } : {}),
      maxRedirects: s.maxRedirects,
      allowHosts: s.allowHosts,
      userAgent: 'Herald media import',
      ...(s.lookup ? { lookup: s.lookup } : {}),
      ...(s.ca ? { ca: s.ca } : {}),
    });
    const written = await temp.write(res.body, maxBytes);
    return { ...written, name: nameFrom(res.url), url: res.url };
  } catch (err) {
    if (err instanceof UrlRefusedError) throw deadline?.refusal(err, loc) ?? urlRefusal(err, loc, maxBytes);
    if (err instanceof TooLargeError) throw urlRefusal(err, loc, maxBytes);
    throw err;
  }
}

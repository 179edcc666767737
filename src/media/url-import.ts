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
    return new AppError('validation', [{ loc, msg: `URL refused: the file is larger than the ${formatBytes(maxBytes)} limit.`, type: 'url_refused' }]);
  }
  const why = err.reason === 'status' ? `the server answered ${err.status ?? 'with an error'}` : WHY[err.reason];
  return new AppError('validation', [{ loc, msg: `URL refused: ${why}.`, type: 'url_refused' }]);
}

export async function downloadToTemp(temp: TempFiles, url: string, maxBytes: number, s: UrlImportSettings, loc: (string | number)[]): Promise<Downloaded> {
  try {
    const res = await safeFetch(url, {
      maxBytes,
      timeoutMs: s.timeoutMs,
      maxRedirects: s.maxRedirects,
      allowHosts: s.allowHosts,
      userAgent: 'Herald media import',
      ...(s.lookup ? { lookup: s.lookup } : {}),
      ...(s.ca ? { ca: s.ca } : {}),
    });
    const written = await temp.write(res.body, maxBytes);
    return { ...written, name: nameFrom(res.url), url: res.url };
  } catch (err) {
    if (err instanceof UrlRefusedError || err instanceof TooLargeError) throw urlRefusal(err, loc, maxBytes);
    throw err;
  }
}

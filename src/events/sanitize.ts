// A network's error text as events, the post timeline and mails show it: credentials scrubbed (query parameters
// that carry them, tokens by their look, Authorization values), control characters removed, length bounded.
import { scrubUrl } from '../logger.ts';

const MAX = 500;

export function sanitizeErrorText(text: string): string {
  const scrubbed = scrubUrl(text)
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]')
    // `access_token=…`, `client_secret: …` written out in a message rather than a URL.
    .replace(/\b([\w-]*(?:token|secret|password|api[_-]?key))(["']?\s*[=:]\s*["']?)[^\s"'&,;)]+/gi, '$1$2[redacted]')
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim();
  return scrubbed.length > MAX ? `${scrubbed.slice(0, MAX - 1)}…` : scrubbed;
}

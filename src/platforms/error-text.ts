import { isIPv4, isIPv6 } from 'node:net';

// What of a failure may reach an API answer. A PlatformError's message ends up in connect results, publishing
// results, profile errors and a connection's reconnect reason, so it is one short line of plain text whatever went
// into it; text a network (or whatever answered in its place) wrote is further stripped of anything naming a host.

/** C0/C1 controls, line and paragraph separators, and the bidi overrides that can disguise text. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g;
const TAGS = /<\/?[a-z!?][^>]*>?/gi;
const URLS = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]*/gi;
// Candidates only; node:net decides what is an address (a clock time such as 12:30:45 is not).
const IPV4 = /\b\d{1,3}(?:\.\d{1,3}){3}\b(?::\d{1,5}\b)?/g;
const IPV6 = /(?<![\w.:])\[?[0-9a-f]*:[0-9a-f:.]*\]?(?::\d{1,5})?(?![\w:])/gi;
// A long opaque run (a token, a signature) is blanked in case a network echoes one.
const OPAQUE = /[\w.~+/!=-]{32,}/g;
const HOSTNAMES = /\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]\b|\blocalhost\b/gi;

function bounded(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max
    ? `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
    : text;
}

/** Any PlatformError message: one line, no markup, URLs and IP addresses left out, at most `max` characters. */
export function cleanMessage(text: string, max = 300): string {
  const plain = text
    .replace(CONTROLS, ' ')
    .replace(TAGS, ' ')
    .replace(/[<>]/g, ' ')
    .replace(URLS, '[url]')
    .replace(IPV6, (m) => {
      const end = m.endsWith('.') ? '.' : '';
      return isIPv6(
        m
          .slice(0, m.length - end.length)
          .replace(/^\[/, '')
          .replace(/\](:\d+)?$/, ''),
      )
        ? `[address]${end}`
        : m;
    })
    .replace(IPV4, (m) => (isIPv4(m.replace(/:\d+$/, '')) ? '[address]' : m))
    .replace(OPAQUE, '[redacted]')
    .replace(/\s+/g, ' ')
    .trim();
  return bounded(plain, max);
}

/**
 * Text a network wrote (an error message, a failure reason): cleaned like every message, host names left out too,
 * and short. An HTML page is not a message at all. Empty when nothing useful is left.
 */
export function networkText(text: unknown, max = 160): string {
  if (typeof text !== 'string') return '';
  if (/<(!doctype|html|head|body)\b/i.test(text)) return '';
  return cleanMessage(cleanMessage(text, 4 * max).replace(HOSTNAMES, '[host]'), max);
}

// Measuring and shortening text the way a network counts it (its contract's TextLimit), grapheme by
// grapheme, so a cut never splits an emoji, a flag, a combining mark or a surrogate pair.
import type { TextLimit } from '../../platforms/types.ts';

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const SPACE = /\s/u;
export const ELLIPSIS = '…';

export function graphemes(text: string): string[] {
  return Array.from(graphemeSegmenter.segment(text), (s) => s.segment);
}

const utf8 = (s: string): number => Buffer.byteLength(s, 'utf8');

/**
 * What one grapheme costs against a limit. Where a contract counts graphemes, an emoji is charged its
 * UTF-8 bytes (a network may count it so: Threads does), so that copy fitting here fits under either
 * reading of the limit. Never less than the contract's own count.
 */
function cost(g: string, unit: TextLimit['unit']): number {
  if (unit === 'utf16') return g.length;
  if (unit === 'bytes') return utf8(g);
  return PICTOGRAPHIC.test(g) ? Math.max(1, utf8(g)) : 1;
}

/** The text's length under `limit` (with emoji charged as above for grapheme counts). */
export function measure(text: string, limit: Pick<TextLimit, 'unit'>): number {
  if (limit.unit === 'utf16') return text.length;
  if (limit.unit === 'bytes') return utf8(text);
  let n = 0;
  for (const g of graphemeSegmenter.segment(text)) n += cost(g.segment, limit.unit);
  return n;
}

export function fits(text: string, limit: TextLimit): boolean {
  return measure(text, limit) <= limit.max && (limit.maxBytes === undefined || utf8(text) <= limit.maxBytes);
}

/**
 * The longest start of `text` that fits `limit` with `ELLIPSIS` after it, cut at a word boundary when
 * one lies in the last third of what fits (scripts written without spaces are cut between graphemes).
 * Text that already fits comes back unchanged.
 */
export function clip(text: string, limit: TextLimit): string {
  if (fits(text, limit)) return text;
  const room = limit.max - measure(ELLIPSIS, limit);
  const roomBytes = limit.maxBytes === undefined ? Infinity : limit.maxBytes - utf8(ELLIPSIS);
  const gs = graphemes(text);
  let used = 0;
  let bytes = 0;
  let end = 0;
  let lastSpace = -1;
  for (; end < gs.length; end++) {
    const g = gs[end]!;
    const c = cost(g, limit.unit);
    const b = utf8(g);
    if (used + c > room || bytes + b > roomBytes) break;
    used += c;
    bytes += b;
    if (SPACE.test(g)) lastSpace = end;
  }
  if (lastSpace > 0 && lastSpace >= (end * 2) / 3) end = lastSpace;
  // No dangling space, comma or dash before the ellipsis.
  const head = gs
    .slice(0, end)
    .join('')
    .replace(/[\s,;:.!?、，。；：–—-]+$/u, '');
  return head ? head + ELLIPSIS : '';
}

/** Collapses runs of spaces and tabs, trims each line, and keeps at most one blank line between paragraphs. */
export function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

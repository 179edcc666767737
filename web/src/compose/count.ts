// Counting a post's text the way each network does (the rule comes from GET /unified/platforms): user-perceived
// characters (graphemes), UTF-16 code units or UTF-8 bytes, with an optional byte cap on top (Bluesky). Pure: no DOM.

export type TextUnit = 'graphemes' | 'utf16' | 'bytes';

export interface TextRule {
  max: number;
  unit: TextUnit;
  /** A UTF-8 size limit on top of the count. */
  maxBytes?: number | null | undefined;
}

export interface TextCount {
  used: number;
  max: number;
  unit: TextUnit;
  remaining: number;
  bytes: number;
  maxBytes: number | undefined;
  /** Over the count or over the byte cap. */
  over: boolean;
}

const encoder = new TextEncoder();
let segmenter: Intl.Segmenter | undefined;

function graphemes(text: string): string[] {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

export const byteLength = (text: string): number => encoder.encode(text).length;

/** The length of `text` in `unit`. */
export function measure(text: string, unit: TextUnit): number {
  switch (unit) {
    case 'graphemes':
      return graphemes(text).length;
    case 'bytes':
      return byteLength(text);
    default:
      return text.length;
  }
}

export function countText(text: string, rule: TextRule): TextCount {
  const used = measure(text, rule.unit);
  const bytes = rule.maxBytes ? byteLength(text) : used;
  const maxBytes = rule.maxBytes ?? undefined;
  return {
    used,
    max: rule.max,
    unit: rule.unit,
    remaining: rule.max - used,
    bytes,
    maxBytes,
    over: used > rule.max || (maxBytes !== undefined && bytes > maxBytes),
  };
}

/**
 * The longest start of `text` within `max` units of `unit` (and `maxBytes`, if given), never splitting a grapheme:
 * what the network keeps when it cuts the text.
 */
export function cutText(text: string, max: number, unit: TextUnit, maxBytes?: number): string {
  if (measure(text, unit) <= max && (maxBytes === undefined || byteLength(text) <= maxBytes)) return text;
  let out = '';
  let used = 0;
  let bytes = 0;
  for (const g of graphemes(text)) {
    const size = unit === 'graphemes' ? 1 : measure(g, unit);
    const gBytes = byteLength(g);
    if (used + size > max || (maxBytes !== undefined && bytes + gBytes > maxBytes)) break;
    out += g;
    used += size;
    bytes += gBytes;
  }
  return out;
}

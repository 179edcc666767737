// Text length rules differ per network: UTF-16 code units (TikTok, LinkedIn), graphemes (Bluesky), UTF-8 bytes
// (YouTube descriptions, Bluesky), graphemes with emoji charged by their bytes (Threads).
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

export function graphemes(text: string): string[] {
  return [...segmenter.segment(text)].map((s) => s.segment);
}

export function graphemeCount(text: string): number {
  return graphemes(text).length;
}

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;

/** Threads' count: one per grapheme, except that an emoji counts as many as its UTF-8 bytes. */
export function threadsLength(text: string): number {
  return graphemes(text).reduce((n, g) => n + (PICTOGRAPHIC.test(g) ? utf8Length(g) : 1), 0);
}

/** http(s) URLs written in a text, unique, in order. */
export function urlsIn(text: string): string[] {
  return [...new Set(text.match(/https?:\/\/[^\s<>"']+/gi) ?? [])];
}

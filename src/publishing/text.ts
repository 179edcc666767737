// Counting text the way each network counts it.
import type { TextLimit } from '../platforms/types.ts';

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

export function countText(text: string, unit: TextLimit['unit']): number {
  if (unit === 'utf16') return text.length;
  if (unit === 'bytes') return Buffer.byteLength(text, 'utf8');
  let n = 0;
  for (const _ of graphemes.segment(text)) n++;
  return n;
}

// The composer's counters count a post's text as the networks do: graphemes, UTF-16 code units or UTF-8 bytes,
// with a byte cap on top where the network has one, and cut it without splitting a character.
import { describe, expect, it } from 'vitest';
import { countText, cutText, measure } from '../../web/src/compose/count.ts';

const family = '👨‍👩‍👧‍👦'; // one grapheme: 7 code points, 11 UTF-16 units, 25 bytes
const flag = '🇧🇦'; // one grapheme: 2 code points, 4 UTF-16 units, 8 bytes
const accented = 'e\u0301'; // é as e + combining acute: one grapheme, 2 UTF-16 units, 3 bytes

describe('measure', () => {
  it('counts user-perceived characters for graphemes', () => {
    expect(measure(`${family}${flag}${accented}ab`, 'graphemes')).toBe(5);
  });
  it('counts UTF-16 code units for utf16', () => {
    expect(measure(family, 'utf16')).toBe(11);
    expect(measure(`${flag}a`, 'utf16')).toBe(5);
  });
  it('counts UTF-8 bytes for bytes', () => {
    expect(measure(family, 'bytes')).toBe(25);
    expect(measure('čćž', 'bytes')).toBe(6);
    expect(measure(accented, 'bytes')).toBe(3);
  });
  it('counts the empty text as 0 in every unit', () => {
    for (const unit of ['graphemes', 'utf16', 'bytes'] as const) expect(measure('', unit)).toBe(0);
  });
});

describe('countText', () => {
  it('gives what is used and left against the limit', () => {
    expect(countText('hello', { max: 10, unit: 'utf16' })).toMatchObject({ used: 5, remaining: 5, over: false });
  });
  it('is over one unit past the limit and not at the limit', () => {
    expect(countText('a'.repeat(300), { max: 300, unit: 'graphemes' }).over).toBe(false);
    expect(countText('a'.repeat(301), { max: 300, unit: 'graphemes' })).toMatchObject({ over: true, remaining: -1 });
  });
  it('counts the same emoji text differently by unit', () => {
    const text = family.repeat(10);
    expect(countText(text, { max: 100, unit: 'graphemes' }).over).toBe(false);
    expect(countText(text, { max: 100, unit: 'utf16' }).over).toBe(true);
  });
  it('is over the byte cap even within the grapheme count (300 graphemes, 3000 bytes)', () => {
    const text = family.repeat(150); // 150 graphemes, 3750 bytes
    const c = countText(text, { max: 300, unit: 'graphemes', maxBytes: 3000 });
    expect(c).toMatchObject({ used: 150, bytes: 3750, maxBytes: 3000, over: true });
  });
});

describe('cutText', () => {
  it('keeps a text within the limit whole', () => {
    expect(cutText('short', 10, 'utf16')).toBe('short');
  });
  it('cuts at the limit in the network unit', () => {
    expect(cutText('abcdef', 4, 'utf16')).toBe('abcd');
    expect(cutText(`ab${family}cd`, 3, 'graphemes')).toBe(`ab${family}`);
  });
  it('never splits a character whose units straddle the limit', () => {
    expect(cutText(`a${family}b`, 5, 'utf16')).toBe('a');
    expect(cutText(`a${accented}`, 2, 'utf16')).toBe('a');
    expect(cutText(`${flag}${flag}`, 6, 'bytes')).toBe('');
  });
  it('honours a byte cap on top of the count', () => {
    expect(cutText(family.repeat(3), 300, 'graphemes', 50)).toBe(family.repeat(2));
  });
});

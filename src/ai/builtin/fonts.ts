// The card renderer's fonts: Noto (SIL Open Font License 1.1) from @fontsource packages. Each package is cut into
// unicode-range subsets (its CSS says which file covers what); a card loads only the subsets holding its characters,
// so a Latin card never parses a CJK font. Installed with Herald: Latin, Cyrillic, Greek, Vietnamese and Devanagari
// (Noto Sans), Arabic, Hebrew, emoji in outline (Noto Emoji, black and white). Optional, used when installed (130 MB,
// so not part of a server install): Chinese and Japanese kana (Noto Sans SC; Japanese kanji in their Chinese forms)
// and Hangul (Noto Sans KR); `missingFonts` names the package a text would need. Characters of other scripts (Thai,
// Bengali, Tamil…) have no glyph and are left blank on the card; the copy keeps them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type Weight = 400 | 700;

interface Face {
  /**
   * The subset's name, the same at every weight: the renderer falls back across font names, taking the
   * best weight under each name, so a subset loaded at two weights draws each run in its own.
   */
  name: string;
  weight: Weight;
  file: string;
  ranges: [number, number][];
}

/** In fallback order: the first face covering a character draws it. */
const PACKAGES = [
  '@fontsource/noto-sans',
  '@fontsource/noto-sans-arabic',
  '@fontsource/noto-sans-hebrew',
  '@fontsource/noto-sans-sc',
  '@fontsource/noto-sans-kr',
];
/**
 * Emoji come from the whole Noto Emoji font (its `emoji` stylesheet, one file): the renderer picks
 * a font for an emoji by its first UTF-16 unit, which most emoji share, so one font must hold them
 * all; and sequences (families, flags, skin tones) are ligatures that only a whole font has.
 */
const EMOJI = { pkg: '@fontsource/noto-emoji', sheet: 'emoji-' };

/**
 * The font packages a server may go without (in PACKAGES when installed), with the characters only they draw: the
 * CJK ideographs and their extensions, kana, bopomofo, CJK punctuation and full-width forms (SC); Hangul (KR).
 */
export const OPTIONAL_FONTS = [
  {
    pkg: '@fontsource/noto-sans-sc',
    scripts: 'Chinese and Japanese',
    chars:
      /[\u{2E80}-\u{2FDF}\u{3000}-\u{303F}\u{3040}-\u{31BF}\u{31F0}-\u{31FF}\u{3400}-\u{4DBF}\u{4E00}-\u{9FFF}\u{F900}-\u{FAFF}\u{FF00}-\u{FFEF}\u{20000}-\u{3FFFF}]/u,
  },
  {
    pkg: '@fontsource/noto-sans-kr',
    scripts: 'Korean',
    chars: /[\u{1100}-\u{11FF}\u{3130}-\u{318F}\u{A960}-\u{A97F}\u{AC00}-\u{D7FF}]/u,
  },
];

const require = createRequire(import.meta.url);
// Emoji and the code points only emoji sequences use: skin tones, flag letters, tag characters, keycap.
// biome-ignore lint/suspicious/noMisleadingCharacterClass: U+20E3 is matched on its own, as a part of a keycap sequence
const EMOJI_PART = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}\u{E0020}-\u{E007F}\u20E3]/u;
const FACE = /@font-face\s*{([^}]*)}/g;

function parseRanges(list: string): [number, number][] {
  return list.split(',').map((r) => {
    const [a, b] = r.trim().replace(/^U\+/i, '').split('-');
    const lo = parseInt(a!, 16);
    return [lo, b ? parseInt(b, 16) : lo];
  });
}

function facesOf(pkg: string, weight: Weight, sheet = ''): Face[] {
  let css: string;
  let dir: string;
  try {
    const path = require.resolve(`${pkg}/${sheet}${weight}.css`);
    css = readFileSync(path, 'utf8');
    dir = dirname(path);
  } catch {
    return [];
  }
  const faces: Face[] = [];
  for (const [, body] of css.matchAll(FACE)) {
    const woff = /url\(([^)]+\.woff)\)\s*format\('woff'\)/.exec(body!)?.[1];
    const range = /unicode-range:\s*([^;]+);/.exec(body!)?.[1] ?? 'U+0-10FFFF';
    if (!woff) continue;
    const name = woff.replace(/^.*\//, '').replace(/-\d+-normal\.woff$/, '');
    faces.push({ name, weight, file: join(dir, woff), ranges: parseRanges(range) });
  }
  return faces;
}

const byWeight = new Map<Weight, { text: Face[]; emoji: Face | undefined }>();

/**
 * Every text subset at a weight, in fallback order, and the emoji font (a package without the weight lends its
 * regular).
 */
function fontFaces(weight: Weight): { text: Face[]; emoji: Face | undefined } {
  let f = byWeight.get(weight);
  if (!f) {
    const at = (pkg: string, sheet = '') => {
      const own = facesOf(pkg, weight, sheet);
      return own.length ? own : facesOf(pkg, 400, sheet);
    };
    f = { text: PACKAGES.flatMap((pkg) => at(pkg)), emoji: at(EMOJI.pkg, EMOJI.sheet)[0] };
    byWeight.set(weight, f);
  }
  return f;
}
const faces = (weight: Weight) => fontFaces(weight).text;

const covers = (face: Face, cp: number) => face.ranges.some(([lo, hi]) => cp >= lo && cp <= hi);

export interface SatoriFont {
  name: string;
  data: Buffer;
  weight: Weight;
  style: 'normal';
}

const files = new Map<string, Buffer>();
const sets = new Map<string, SatoriFont[]>();
const MAX_SETS = 64;

/**
 * The fonts for texts drawn at the given weights: the Latin subset of each weight always (the
 * renderer needs a font even for digits and spaces), plus each subset that covers one of the
 * characters. The same set of subsets gives the same array, which the renderer caches by identity.
 */
export function fontsFor(runs: { text: string; weight: Weight }[]): SatoriFont[] {
  const chosen = new Set<Face>();
  const emoji = new Set<Face>();
  for (const { text, weight } of runs) {
    const { text: list, emoji: emojiFace } = fontFaces(weight);
    const latin = list.find((f) => covers(f, 0x41));
    if (latin) chosen.add(latin);
    for (const ch of new Set(text)) {
      const cp = ch.codePointAt(0)!;
      if (cp < 0x80) continue; // ASCII: the Latin subset
      // Emoji from the emoji font, though text fonts' ranges claim some of them (☕, ✨, flags) too.
      if (emojiFace && EMOJI_PART.test(ch)) emoji.add(emojiFace);
      else {
        const face = list.find((f) => covers(f, cp));
        if (face) chosen.add(face);
      }
    }
  }
  // Fallback order: the Latin faces, the emoji font (before any text font that also has emoji), then by package.
  const order = [...faces(700), ...faces(400)];
  const text = [...chosen].sort((a, b) => order.indexOf(a) - order.indexOf(b));
  const ordered = [...text.filter((f) => covers(f, 0x41)), ...emoji, ...text.filter((f) => !covers(f, 0x41))];
  const key = ordered.map((f) => f.file).join('|');
  let set = sets.get(key);
  if (!set) {
    set = ordered.map((f) => {
      let data = files.get(f.file);
      if (!data) files.set(f.file, (data = readFileSync(f.file)));
      return { name: f.name, data, weight: f.weight, style: 'normal' as const };
    });
    if (sets.size >= MAX_SETS) sets.delete(sets.keys().next().value!);
    sets.set(key, set);
  }
  return set;
}

/** The `fontFamily` to ask for at a weight: its Latin face (every other face is a fallback). */
export function primaryFamily(weight: Weight): string {
  return faces(weight).find((f) => covers(f, 0x41))?.name ?? 'sans-serif';
}

/**
 * What a card of `text` misses because an optional font package is not installed: one line per package, naming
 * the script, the characters left blank and the command that adds it. Empty when every such character has a font.
 */
export function missingFonts(text: string, weight: Weight = 400): string[] {
  const blank = uncovered(text, weight);
  return OPTIONAL_FONTS.flatMap(({ pkg, scripts, chars }) => {
    const need = blank.filter((ch) => chars.test(ch));
    return need.length
      ? [
          `${scripts} characters (${need.slice(0, 8).join('')}${need.length > 8 ? '…' : ''}) are left blank: their font is not installed (npm install ${pkg})`,
        ]
      : [];
  });
}

/** The characters of `text` (other than spaces and controls) that no installed font can draw. */
export function uncovered(text: string, weight: Weight = 400): string[] {
  const { text: list, emoji } = fontFaces(weight);
  return [...new Set(text)].filter(
    (ch) =>
      /[^\s\p{Cc}\p{Cf}]/u.test(ch) &&
      !(emoji && EMOJI_PART.test(ch)) &&
      !list.some((f) => covers(f, ch.codePointAt(0)!)),
  );
}

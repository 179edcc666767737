// Text cards: copy laid out by satori (to SVG, glyphs as paths) and rasterised by sharp, in a network's
// preferred size. Deterministic: the same copy and size give the same bytes.
import satori from 'satori';
import sharp from 'sharp';
import type { NetworkContract } from '../../platforms/contract.ts';
import { flat, parts } from './copy.ts';
import { fontsFor, missingFonts, primaryFamily } from './fonts.ts';
import { hashtagsIn } from './keywords.ts';
import { direction } from './language.ts';
import { clip, graphemes, tidy } from './text.ts';

export interface CardSize {
  width: number;
  height: number;
}

export interface Card {
  data: Buffer;
  format: 'png' | 'jpeg';
  mime: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  /** What was drawn, in words: the honest answer to "which prompt made this image". */
  description: string;
}

/** Where a network's contract gives no preferred size: its widest accepted aspect at 1080 wide, else square. */
export function cardSize(network: Pick<NetworkContract, 'media'>): CardSize {
  const preferred = network.media.preferredImage;
  if (preferred) return preferred;
  const aspect = network.media.imageAspect;
  if (aspect && (aspect.min > 1 || aspect.max < 1)) {
    const ratio = aspect.min > 1 ? aspect.min : aspect.max;
    return { width: 1080, height: Math.round(1080 / ratio) };
  }
  return { width: 1080, height: 1080 };
}

/** Light backgrounds with dark text (legible, and read back by OCR in the tests); picked by the copy's hash. */
const PALETTES = [
  { bg: '#f6f1e7', fg: '#1f2933', accent: '#d9480f', muted: '#52606d' },
  { bg: '#eef4fb', fg: '#102a43', accent: '#1c7ed6', muted: '#486581' },
  { bg: '#f1f8f3', fg: '#14291d', accent: '#2b8a3e', muted: '#4a6354' },
  { bg: '#fbf0f4', fg: '#2d1320', accent: '#c2255c', muted: '#6b4a58' },
  { bg: '#f4f1fb', fg: '#1e1636', accent: '#6741d9', muted: '#5a5073' },
  { bg: '#fff8e6', fg: '#2b2111', accent: '#e67700', muted: '#6b5a3a' },
] as const;

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

// Wide characters (CJK, Hangul, full-width forms, emoji) take about an em; others about half.
const WIDE =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef\p{Extended_Pictographic}]/u;
const emOf = (g: string) => (WIDE.test(g) ? 1 : /\s/.test(g) ? 0.28 : 0.58);
/** Breaks leave the end of lines empty: count a line as holding 85% of its width. */
const FILL = 0.85;

/**
 * The text at the largest font size (2 px steps within `sizes`) at which it wraps into `box`; when it
 * does not fit at the smallest, as much of it as does, clipped.
 */
function fitText(
  text: string,
  box: { width: number; height: number },
  lineHeight: number,
  sizes: [number, number],
): { text: string; size: number; lines: number } {
  const gs = graphemes(text);
  const em = gs.reduce((n, g) => n + emOf(g), 0);
  const linesAt = (size: number) => Math.ceil((em * size) / (box.width * FILL));
  for (let size = sizes[1]; size >= sizes[0]; size -= 2) {
    const lines = linesAt(size);
    if (lines * size * lineHeight <= box.height) return { text, size, lines };
  }
  const size = sizes[0];
  const lines = Math.max(1, Math.floor(box.height / (size * lineHeight)));
  let room = (lines * box.width * FILL) / size - 1; // one em for the ellipsis
  let end = 0;
  while (end < gs.length && (room -= emOf(gs[end]!)) >= 0) end++;
  return { text: clip(text, { max: end + 1, unit: 'graphemes' }), size, lines };
}

interface Node {
  type: string;
  props: { style?: Record<string, unknown>; children?: Node | Node[] | string; lang?: string };
}
const div = (style: Record<string, unknown>, children?: Node | Node[] | string, lang?: string): Node => ({
  type: 'div',
  props: {
    style: { display: 'flex', ...style },
    ...(children !== undefined ? { children } : {}),
    ...(lang ? { lang } : {}),
  },
});

/** What goes on a card from a piece of copy: its hook large, some of the rest below, hashtags at the foot. */
export function cardText(copy: string, lang: string | null): { headline: string; body: string; tags: string[] } {
  const tags = hashtagsIn(copy)
    .slice(0, 3)
    .map((t) => `#${t}`);
  const withoutTrailingTags = tidy(copy).replace(/(?:\s*#[\p{L}\p{M}\p{N}_]+)+\s*$/u, '');
  const p = parts(withoutTrailingTags, lang);
  return { headline: p.hook, body: flat(p.body), tags };
}

export interface CardInput {
  copy: string;
  size: CardSize;
  /** Image formats the network accepts; PNG when it may, else JPEG. */
  formats?: readonly string[];
  /** The most bytes the network takes for an image. */
  maxBytes?: number;
  lang?: string | null;
}

export async function renderCard(input: CardInput): Promise<Card> {
  const { width, height } = input.size;
  const lang = input.lang ?? null;
  const { headline, body, tags } = cardText(input.copy, lang);
  const dir = direction(headline + body);
  const palette = PALETTES[fnv1a(input.copy) % PALETTES.length]!;
  const short = Math.min(width, height);
  const pad = Math.round(short * 0.08);
  const gap = Math.round(pad * 0.4);
  const inner = width - 2 * pad;
  const bar = Math.round(short * 0.012);
  const tagSize = Math.round(short * 0.034);
  const footer = tags.length ? Math.round(tagSize * 1.5) : 0;
  const textHeight = height - 2 * pad - bar - footer - 2 * gap;
  // The headline takes up to 62% of the room when a body follows, all of it otherwise.
  const head = fitText(headline, { width: inner, height: textHeight * (body ? 0.62 : 1) }, 1.18, [
    Math.round(short * 0.05),
    Math.round(short * 0.1),
  ]);
  const bodyHeight = textHeight - head.lines * head.size * 1.18 - gap;
  const bodySize = Math.max(Math.round(short * 0.03), Math.min(Math.round(head.size * 0.5), Math.round(short * 0.045)));
  const sub =
    body && bodyHeight >= bodySize * 1.35
      ? fitText(body, { width: inner, height: bodyHeight }, 1.35, [bodySize, bodySize]).text
      : '';
  const textStyle = { direction: dir, textAlign: dir === 'rtl' ? 'right' : 'left', width: inner };
  const tree = div(
    {
      width,
      height,
      boxSizing: 'border-box',
      flexDirection: 'column',
      justifyContent: 'space-between',
      alignItems: dir === 'rtl' ? 'flex-end' : 'flex-start',
      backgroundColor: palette.bg,
      padding: pad,
      fontFamily: primaryFamily(700),
    },
    [
      div({
        width: Math.round(short * 0.14),
        height: bar,
        backgroundColor: palette.accent,
        borderRadius: bar,
        flexShrink: 0,
      }),
      div(
        {
          flexDirection: 'column',
          flexGrow: 1,
          flexShrink: 1,
          justifyContent: 'center',
          width: inner,
          marginTop: gap,
          marginBottom: gap,
        },
        [
          div(
            { ...textStyle, fontSize: head.size, fontWeight: 700, lineHeight: 1.18, color: palette.fg },
            head.text,
            lang ?? undefined,
          ),
          ...(sub
            ? [
                div(
                  {
                    ...textStyle,
                    fontSize: bodySize,
                    fontWeight: 400,
                    fontFamily: primaryFamily(400),
                    lineHeight: 1.35,
                    color: palette.muted,
                    marginTop: gap,
                  },
                  sub,
                  lang ?? undefined,
                ),
              ]
            : []),
        ],
      ),
      div(
        {
          ...textStyle,
          fontSize: tagSize,
          fontWeight: 400,
          fontFamily: primaryFamily(400),
          color: palette.accent,
          height: footer,
          flexShrink: 0,
        },
        tags.join('  '),
      ),
    ],
  );
  const fonts = fontsFor([
    { text: head.text, weight: 700 },
    { text: sub + tags.join(''), weight: 400 },
  ]);
  const svg = await satori(tree as unknown as Parameters<typeof satori>[0], { width, height, fonts });
  const { data, format } = await encodeImage(Buffer.from(svg), { formats: input.formats, maxBytes: input.maxBytes });
  return finish(data, format);

  function finish(bytes: Buffer, format: 'png' | 'jpeg'): Card {
    const shown = [head.text, sub].filter(Boolean).join(' ');
    const description = `Text card drawn by Herald's built-in renderer (no image model): ${width}×${height} ${format.toUpperCase()}, ${dir === 'rtl' ? 'right-to-left ' : ''}text “${clip(shown, { max: 160, unit: 'graphemes' })}”${tags.length ? ` with ${tags.join(' ')}` : ''} on ${palette.bg}.`;
    // A script whose optional font is not installed is drawn blank, and the description says so (and how to fix it).
    const note = missingFonts(shown + tags.join(''))
      .map((m) => ` ${m}.`)
      .join('');
    return {
      data: bytes,
      format,
      mime: format === 'png' ? 'image/png' : 'image/jpeg',
      width,
      height,
      description: description + note,
    };
  }
}

export interface EncodedImage {
  data: Buffer;
  format: 'png' | 'jpeg';
  mime: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
}

/**
 * An image (a card's SVG, or a model's picture) as a network takes it: cropped to `size` when given
 * (cover, centred), PNG where accepted, else or when over `maxBytes` JPEG at falling quality.
 */
export async function encodeImage(
  input: Buffer,
  opts: { size?: CardSize; formats?: readonly string[] | undefined; maxBytes?: number | undefined },
): Promise<EncodedImage> {
  const base = () => {
    const img = sharp(input, { limitInputPixels: 100_000_000 }).rotate();
    return opts.size ? img.resize(opts.size.width, opts.size.height, { fit: 'cover', position: 'centre' }) : img;
  };
  const jpeg = (quality: number) =>
    base().flatten({ background: '#ffffff' }).jpeg({ quality }).toBuffer({ resolveWithObject: true });
  const accepts = (format: string) => opts.formats === undefined || opts.formats.includes(format);
  let format: 'png' | 'jpeg' = accepts('png') ? 'png' : 'jpeg';
  let out =
    format === 'png' ? await base().png({ compressionLevel: 6 }).toBuffer({ resolveWithObject: true }) : await jpeg(90);
  if (opts.maxBytes !== undefined && out.data.length > opts.maxBytes && accepts('jpeg')) {
    // A card is mostly flat colour and rarely large; if it is, JPEG at lower quality until it fits.
    format = 'jpeg';
    for (let q = 80; q >= 40 && out.data.length > opts.maxBytes; q -= 20) out = await jpeg(q);
  }
  if (opts.maxBytes !== undefined && out.data.length > opts.maxBytes)
    throw new Error(`a ${out.info.width}×${out.info.height} image does not fit in ${opts.maxBytes} bytes`);
  return {
    data: out.data,
    format,
    mime: format === 'png' ? 'image/png' : 'image/jpeg',
    width: out.info.width,
    height: out.info.height,
  };
}

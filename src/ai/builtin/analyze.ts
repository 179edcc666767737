// What can really be known about an image or a video without a model: its size and format, its
// dominant colours (sharp), what its metadata says (EXIF/IPTC/XMP by exifr), the text in it (tesseract,
// on sampled frames for a video: ffmpeg), a video's duration and codecs (ffprobe) and its file name.
// Nothing here guesses at what a picture shows.
import { basename, extname } from 'node:path';
import exifr from 'exifr';
import sharp from 'sharp';
import { probeImage, probeVideo } from '../../media/probe.ts';
import { ocr, type OcrOptions } from './ocr.ts';
import { frameAt, sampleTimes } from './kinds.ts';
import { clip } from './text.ts';

export interface AnalyzeOptions {
  ocr?: OcrOptions;
  /** The ffprobe binary, or false for Herald's own container parsers (default `ffprobe`). */
  ffprobePath?: string | false;
  /** The ffmpeg binary for video frames (default `ffmpeg`). */
  ffmpegPath?: string;
  /** The original file name, when known (a video's name often says what it is). */
  fileName?: string;
}

export interface Colour {
  hex: string;
  /** The nearest of a few plain colour names, in English. */
  name: string;
}

export interface Metadata {
  taken?: string;
  camera?: string;
  lens?: string;
  /** Title or caption written into the file (EXIF ImageDescription, IPTC caption, XMP title/description). */
  caption?: string;
  author?: string;
  copyright?: string;
  /** Where it was taken, when the file says: reported, never put into copy. */
  gps?: { latitude: number; longitude: number };
}

export interface TextFound {
  text: string;
  /** `tesseract`, or `unavailable` when it is not installed (then `text` is ''). */
  reader: 'tesseract' | 'unavailable';
  confidence: number;
}

export interface ImageFacts {
  kind: 'image';
  format: string;
  width: number;
  height: number;
  animated: boolean;
  dominant: Colour;
  metadata: Metadata;
  text: TextFound;
  fileName?: string;
}

export interface VideoFacts {
  kind: 'video';
  format: string;
  durationSec: number | null;
  width: number | null;
  height: number | null;
  videoCodec: string | null;
  audioCodec: string | null;
  /** Text read on the sampled frames, lines in order of first appearance. */
  text: TextFound & { frames: number };
  /** The file name turned into words ('' when it says nothing: IMG_2041, a UUID…). */
  nameWords: string;
  fileName?: string;
}

const NAMED: [string, [number, number, number]][] = [
  ['black', [0, 0, 0]],
  ['white', [255, 255, 255]],
  ['grey', [128, 128, 128]],
  ['light grey', [200, 200, 200]],
  ['dark grey', [64, 64, 64]],
  ['red', [220, 30, 30]],
  ['dark red', [128, 0, 0]],
  ['orange', [245, 140, 30]],
  ['yellow', [245, 220, 40]],
  ['beige', [235, 220, 190]],
  ['brown', [120, 75, 40]],
  ['green', [40, 160, 60]],
  ['dark green', [0, 90, 40]],
  ['olive', [128, 128, 0]],
  ['teal', [0, 128, 128]],
  ['light blue', [150, 200, 240]],
  ['blue', [30, 90, 220]],
  ['navy', [20, 30, 90]],
  ['purple', [120, 50, 160]],
  ['pink', [240, 150, 190]],
  ['magenta', [210, 40, 160]],
];

export function colourOf(r: number, g: number, b: number): Colour {
  let best = NAMED[0]!;
  let bestD = Infinity;
  for (const c of NAMED) {
    const [cr, cg, cb] = c[1];
    // Weighted distance: the eye is most sensitive to green, least to blue.
    const d = 2 * (r - cr) ** 2 + 4 * (g - cg) ** 2 + 3 * (b - cb) ** 2;
    if (d < bestD) [best, bestD] = [c, d];
  }
  const hex = `#${[r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
  return { hex, name: best[0] };
}

const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim()
    ? v.trim()
    : Array.isArray(v) && typeof v[0] === 'string'
      ? str(v[0])
      : typeof v === 'object' && v && 'value' in v
        ? str((v as { value: unknown }).value)
        : undefined;

/** EXIF dates are "YYYY:MM:DD hh:mm:ss" in the camera's own clock: kept as the calendar date written. */
function exifDate(v: unknown): string | undefined {
  const m = typeof v === 'string' ? /^(\d{4})[:-](\d{2})[:-](\d{2})/.exec(v) : null;
  return m && m[1] !== '0000' ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}

export async function readMetadata(image: Buffer): Promise<Metadata> {
  let raw: Record<string, unknown> | undefined;
  try {
    raw = await exifr.parse(image, {
      tiff: true,
      exif: true,
      gps: true,
      iptc: true,
      xmp: true,
      reviveValues: false,
      translateValues: false,
      mergeOutput: true,
    });
  } catch {
    return {}; // unreadable metadata is no metadata
  }
  if (!raw) return {};
  const make = str(raw.Make);
  const model = str(raw.Model);
  const camera =
    model && make && !model.toLowerCase().startsWith(make.toLowerCase().split(' ')[0]!)
      ? `${make} ${model}`
      : (model ?? make);
  const lat = Number(raw.latitude);
  const lon = Number(raw.longitude);
  const meta: Metadata = {};
  const set = <K extends keyof Metadata>(k: K, v: Metadata[K] | undefined) => {
    if (v !== undefined) meta[k] = v;
  };
  set('taken', exifDate(raw.DateTimeOriginal) ?? exifDate(raw.CreateDate) ?? exifDate(raw.DateTime));
  set('camera', camera);
  set('lens', str(raw.LensModel));
  set(
    'caption',
    str(raw.ImageDescription) ?? str(raw.Caption) ?? str(raw.description) ?? str(raw.title) ?? str(raw.ObjectName),
  );
  set('author', str(raw.Artist) ?? str(raw.creator) ?? str(raw.Byline));
  set('copyright', str(raw.Copyright) ?? str(raw.rights));
  if (Number.isFinite(lat) && Number.isFinite(lon)) meta.gps = { latitude: lat, longitude: lon };
  return meta;
}

async function readText(image: Buffer, opts: OcrOptions | undefined): Promise<TextFound> {
  const r = await ocr(image, opts);
  return r
    ? { text: r.text, reader: 'tesseract', confidence: r.confidence }
    : { text: '', reader: 'unavailable', confidence: 0 };
}

export async function analyzeImage(image: Buffer, opts: AnalyzeOptions = {}): Promise<ImageFacts> {
  const info = await probeImage(image);
  const [stats, metadata, text] = await Promise.all([
    sharp(image, { limitInputPixels: 100_000_000 }).stats(),
    readMetadata(image),
    readText(image, opts.ocr),
  ]);
  const { r, g, b } = stats.dominant;
  return {
    kind: 'image',
    format: info.format,
    width: info.displayWidth,
    height: info.displayHeight,
    animated: info.animated,
    dominant: colourOf(r, g, b),
    metadata,
    text,
    ...(opts.fileName ? { fileName: basename(opts.fileName) } : {}),
  };
}

// Camera and export prefixes and suffixes that say nothing about the content.
const NAME_NOISE =
  /^(img|image|vid|video|mov|mvi|dsc|dscn|dji|pxl|gopr|gp|gh|screenrecording|screen|recording|capture|clip|final|copy|edit|edited|export|exported|untitled|new|v\d+|\d+p|\d+k|hd|uhd|fhd)$/i;

/** Hex with digits in it (hashes, ids), or letters with three digits or more (counters: DSC0042a). */
const isId = (w: string) => (/\d/.test(w) && /^[0-9a-f]{4,}$/i.test(w)) || (w.match(/\d/g)?.length ?? 0) >= 3;

/** A file name as words: separators to spaces, camelCase split, camera prefixes, numbers and ids dropped. */
export function nameWords(fileName: string): string {
  const stem = basename(fileName, extname(fileName)).replace(
    /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi,
    ' ',
  );
  const words = stem
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .split(/[\s_\-.+()[\]]+/u)
    .filter((w) => w && /\p{L}/u.test(w) && !NAME_NOISE.test(w) && !isId(w));
  return words.join(' ');
}

export { sampleTimes } from './kinds.ts';

export async function analyzeVideo(path: string, opts: AnalyzeOptions = {}): Promise<VideoFacts> {
  const info = await probeVideo(path, { ffprobePath: opts.ffprobePath ?? 'ffprobe' });
  const seen = new Set<string>();
  const lines: string[] = [];
  let frames = 0;
  let reader: TextFound['reader'] = 'tesseract';
  let confidence = 0;
  for (const t of sampleTimes(info.durationSec)) {
    const frame = await frameAt(opts.ffmpegPath ?? 'ffmpeg', path, t, 30_000);
    if (!frame) continue;
    frames++;
    const r = await readText(frame, opts.ocr);
    if (r.reader === 'unavailable') {
      reader = 'unavailable';
      break;
    }
    confidence = Math.max(confidence, r.confidence);
    for (const line of r.text.split('\n')) {
      const key = line.toLowerCase().replace(/\s+/g, ' ').trim();
      if (key && !seen.has(key)) {
        seen.add(key);
        lines.push(line.trim());
      }
    }
  }
  const name = opts.fileName ?? basename(path);
  return {
    kind: 'video',
    format: info.format,
    durationSec: info.durationSec ?? null,
    width: info.displayWidth ?? null,
    height: info.displayHeight ?? null,
    videoCodec: info.videoCodec ?? null,
    audioCodec: info.audioCodec ?? null,
    text: { text: lines.join('\n'), reader, confidence, frames },
    nameWords: nameWords(name),
    ...(opts.fileName ? { fileName: basename(opts.fileName) } : {}),
  };
}

const duration = (s: number) => {
  const total = Math.round(s);
  return total < 60 ? `${total} s` : `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')} min`;
};

/** One line of facts, in English: for descriptions and for copy when a file has nothing else to say. */
export function factLine(f: ImageFacts | VideoFacts): string {
  if (f.kind === 'image') {
    const when = f.metadata.taken ? `, taken ${f.metadata.taken}` : '';
    const camera = f.metadata.camera ? ` with ${f.metadata.camera}` : '';
    return `${f.animated ? 'Animated ' : ''}${f.format.toUpperCase()} image, ${f.width}×${f.height}, mostly ${f.dominant.name} (${f.dominant.hex})${when}${camera}.`;
  }
  const size = f.width && f.height ? `, ${f.width}×${f.height}` : '';
  const len = f.durationSec ? `, ${duration(f.durationSec)}` : '';
  const sound = f.audioCodec ? ', with sound' : f.videoCodec ? ', no sound track' : '';
  return `${f.format.toUpperCase()} video${len}${size}${sound}.`;
}

/** A description of the file from its facts, and alt text when there is something to say. */
export function describe(f: ImageFacts | VideoFacts): { description: string; altText: string } {
  const text = f.text.text.replace(/\s*\n\s*/g, ' ').trim();
  const caption = f.kind === 'image' ? f.metadata.caption : f.nameWords;
  const parts = [factLine(f)];
  if (caption) parts.push(f.kind === 'image' ? `Caption in the file: “${caption}”.` : `File name: “${caption}”.`);
  if (text)
    parts.push(
      `Text ${f.kind === 'image' ? 'in the image' : 'on screen'}: “${clip(text, { max: 600, unit: 'graphemes' })}”.`,
    );
  else if (f.text.reader === 'unavailable') parts.push('Text in it was not read (tesseract is not installed).');
  else
    parts.push(
      `No legible text found${f.kind === 'video' ? ` on ${f.text.frames} sampled frame${f.text.frames === 1 ? '' : 's'}` : ''}.`,
    );
  const alt = text
    ? `${f.kind === 'image' ? 'Image' : 'Video'} with the text: ${clip(text, { max: 250, unit: 'graphemes' })}`
    : caption
      ? clip(caption, { max: 250, unit: 'graphemes' })
      : f.kind === 'image'
        ? `Image, mostly ${f.dominant.name}.`
        : '';
  return { description: parts.join(' '), altText: alt };
}

/**
 * An "idea" for copy from what is known, in the file's own words where it has any: its caption or name,
 * then the text read in it; the fact line only when there is nothing else. GPS is never used.
 */
export function ideaFrom(f: ImageFacts | VideoFacts): string {
  const caption =
    f.kind === 'image' ? f.metadata.caption : f.nameWords && f.nameWords[0]!.toUpperCase() + f.nameWords.slice(1);
  const sentence = (c: string) => (/[.!?。！？]$/u.test(c) ? c : `${c}.`);
  const said = [caption ? sentence(caption) : '', f.text.text.trim()].filter(Boolean).join('\n');
  return said || factLine(f);
}

// Text in an image, read by the tesseract command-line tool with the language data the system has
// (Debian: tesseract-ocr and tesseract-ocr-eng; `.ci/run` installs them). Nothing is downloaded.
import sharp from 'sharp';
import { runProgram, toolMissing } from '../../program.ts';

export interface OcrOptions {
  /** The tesseract binary (default: `tesseract` on PATH). */
  binary?: string;
  /** Tesseract language codes joined with '+', among the installed ones (default `eng`). */
  languages?: string;
  timeoutMs?: number;
  /** Words read with less confidence (0–100) are dropped. Default 60. */
  minConfidence?: number;
}

export interface OcrResult {
  /** The lines read, in reading order; '' when the image holds no legible text. */
  text: string;
  words: number;
  /** Mean confidence of the words kept (0–100), 0 when none. */
  confidence: number;
}

const MAX_OUTPUT = 4 << 20;

/**
 * An image as tesseract reads best: on white (no alpha), grey, contrast stretched, and text large
 * enough (small images are enlarged, huge ones reduced).
 */
async function prepare(image: Buffer): Promise<Buffer> {
  const img = sharp(image, { limitInputPixels: 100_000_000, failOn: 'error' }).rotate();
  const { width = 0, height = 0 } = await img.metadata();
  const long = Math.max(width, height);
  const scale = long && long < 1200 ? Math.min(3, 1800 / long) : long > 3000 ? 3000 / long : 1;
  const pipeline = img.flatten({ background: '#ffffff' }).greyscale().normalise();
  if (scale !== 1) pipeline.resize(Math.round(width * scale), Math.round(height * scale), { kernel: 'lanczos3' });
  return pipeline.png({ compressionLevel: 1 }).toBuffer();
}

async function run(binary: string, args: string[], input: Buffer, timeoutMs: number): Promise<string | null> {
  // One thread: tesseract's OpenMP threads only contend with Herald's own work on a small machine.
  const env = { ...process.env, OMP_THREAD_LIMIT: '1' };
  let r: Awaited<ReturnType<typeof runProgram>>;
  try {
    r = await runProgram(binary, args, { timeoutMs, maxOutput: MAX_OUTPUT, input, env });
  } catch (e) {
    throw new Error(`could not run tesseract: ${(e as Error).message}`);
  }
  if (!r) return null;
  if (r.code === 0) return r.stdout.toString('utf8');
  throw new Error(
    `tesseract failed: ${r.signal ? `killed (${r.signal}) after ${timeoutMs} ms or too much output` : r.stderr.trim().split('\n').pop() || `exit code ${r.code}`}`,
  );
}

/** Tesseract's TSV: one row per word with its block, paragraph and line, confidence and text. */
export function parseTsv(tsv: string, minConfidence: number): OcrResult {
  const lines = new Map<string, string[]>();
  let words = 0;
  let total = 0;
  for (const row of tsv.split('\n').slice(1)) {
    const f = row.split('\t');
    if (f.length < 12 || f[0] !== '5') continue;
    const conf = Number(f[10]);
    const word = f.slice(11).join('\t').trim();
    // Noise reads as lone symbols: keep words with a letter or digit.
    if (!word || conf < minConfidence || !/[\p{L}\p{N}]/u.test(word)) continue;
    const key = `${f[2]}.${f[3]}.${f[4]}`;
    const line = lines.get(key);
    if (line) line.push(word);
    else lines.set(key, [word]);
    words++;
    total += conf;
  }
  return {
    text: [...lines.values()].map((l) => l.join(' ')).join('\n'),
    words,
    confidence: words ? Math.round(total / words) : 0,
  };
}

/** The text in an image, or null when tesseract is not installed. */
export async function ocr(image: Buffer, opts: OcrOptions = {}): Promise<OcrResult | null> {
  const binary = opts.binary ?? 'tesseract';
  if (toolMissing(binary)) return null;
  const png = await prepare(image);
  const tsv = await run(
    binary,
    ['stdin', 'stdout', '-l', opts.languages ?? 'eng', '--psm', '3', 'tsv'],
    png,
    opts.timeoutMs ?? 30_000,
  );
  return tsv === null ? null : parseTsv(tsv, opts.minConfidence ?? 60);
}

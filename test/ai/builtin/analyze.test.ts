// Image and video → facts → copy, from what can really be known: text read by tesseract, EXIF, size,
// dominant colour; for video ffprobe's facts, text on sampled frames (ffmpeg) and the file name.
// Fixtures are made here: text drawn with satori and the shipped fonts, EXIF written by sharp, a
// video encoded by ffmpeg from such an image.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import satori from 'satori';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { colourOf, nameWords, sampleTimes } from '../../../src/ai/builtin/analyze.ts';
import { fontsFor, primaryFamily } from '../../../src/ai/builtin/fonts.ts';
import { BuiltinProvider } from '../../../src/ai/builtin/index.ts';
import { parseTsv } from '../../../src/ai/builtin/ocr.ts';
import { NETWORKS } from '../../../src/platforms/registry.ts';
import { assertLength } from '../../../src/publishing/plan.ts';

function installed(binary: string, flag = '-version'): boolean {
  try {
    execFileSync(binary, [flag], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const haveTools = installed('tesseract', '--version') && installed('ffmpeg') && installed('ffprobe');
if (!haveTools) {
  // CI installs them (.ci/run): there, their absence is a failure, never a skip.
  if (process.env.CI) throw new Error('tesseract/ffmpeg missing in CI: the media analysis suite must run');
  console.warn(
    '[herald tests] tesseract or ffmpeg is not installed: media analysis is NOT tested here (apt-get install -y tesseract-ocr tesseract-ocr-eng ffmpeg).',
  );
}

const provider = new BuiltinProvider({ networks: NETWORKS });
const slugs = NETWORKS.map((n) => n.slug);

/** Dark text on white, drawn with the shipped fonts. */
async function textImage(lines: string[], width = 1200, height = 630): Promise<Buffer> {
  const fonts = fontsFor([{ text: lines.join(''), weight: 700 }]);
  const tree = {
    type: 'div',
    props: {
      style: {
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'center',
        width,
        height,
        padding: 60,
        boxSizing: 'border-box',
        backgroundColor: '#ffffff',
        color: '#111111',
        fontFamily: primaryFamily(700),
        fontWeight: 700,
        fontSize: 72,
      },
      children: lines.map((l) => ({ type: 'div', props: { style: { display: 'flex' }, children: l } })),
    },
  };
  const svg = await satori(tree as unknown as Parameters<typeof satori>[0], { width, height, fonts });
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe('pieces', () => {
  it('turns file names into words, dropping camera names, numbers and ids', () => {
    expect(nameWords('espresso-bar_opening-final.mp4')).toBe('espresso bar opening');
    expect(nameWords('SpringLaunchTeaser_v2.mov')).toBe('Spring Launch Teaser');
    expect(nameWords('IMG_2041.MOV')).toBe('');
    expect(nameWords('PXL_20240503_101112345.mp4')).toBe('');
    expect(nameWords('3f2a9c1e-5b7d-4c1a-9e2f-0a1b2c3d4e5f.mp4')).toBe('');
    expect(nameWords('/uploads/Café opening (1080p).mp4')).toBe('Café opening');
  });

  it('reads tesseract TSV: words by line, low-confidence noise dropped', () => {
    const tsv = [
      'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
      '5\t1\t1\t1\t1\t1\t0\t0\t10\t10\t96.1\tOPEN',
      '5\t1\t1\t1\t1\t2\t0\t0\t10\t10\t91.0\tMONDAY',
      '5\t1\t1\t1\t2\t1\t0\t0\t10\t10\t23.0\tz7',
      '5\t1\t1\t1\t2\t2\t0\t0\t10\t10\t88.0\t|',
      '5\t1\t1\t1\t3\t1\t0\t0\t10\t10\t90.0\t8AM',
    ].join('\n');
    expect(parseTsv(tsv, 60)).toEqual({ text: 'OPEN MONDAY\n8AM', words: 3, confidence: 92 });
  });

  it('names colours plainly and samples frames across the video', () => {
    expect(colourOf(20, 30, 90)).toEqual({ hex: '#141e5a', name: 'navy' });
    expect(colourOf(250, 250, 250).name).toBe('white');
    expect(sampleTimes(10)).toEqual([1, 5, 9]);
    expect(sampleTimes(null)).toEqual([0]);
  });
});

describe.skipIf(!haveTools)('media → facts → copy', () => {
  let dir: string;
  let textPng: Buffer;
  let photo: Buffer;
  let video: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'herald-builtin-'));
    textPng = await textImage(['OPEN MONDAY 8AM', 'Espresso bar at the', 'old train station']);
    photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#15205a' } })
      .jpeg()
      .withExif({
        IFD0: { Make: 'Canon', Model: 'Canon EOS R6', ImageDescription: 'Espresso bar opening night' },
        IFD2: { DateTimeOriginal: '2024:05:03 19:22:11' },
      })
      .toBuffer();
    const frame = join(dir, 'frame.png');
    await writeFile(frame, await textImage(['GRAND OPENING', 'MONDAY 8AM'], 1280, 720));
    video = join(dir, 'espresso-bar_opening-final.mp4');
    execFileSync(
      'ffmpeg',
      [
        '-v',
        'error',
        '-y',
        '-loop',
        '1',
        '-i',
        frame,
        '-t',
        '3',
        '-r',
        '10',
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
        video,
      ],
      { stdio: 'pipe' },
    );
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the text in an image, its size and dominant colour', async () => {
    const a = await provider.analyzeImage(textPng, 'poster.png');
    expect(a.facts).toMatchObject({
      kind: 'image',
      format: 'png',
      width: 1200,
      height: 630,
      animated: false,
      fileName: 'poster.png',
    });
    expect(a.facts.dominant.name).toBe('white');
    expect(a.facts.text.reader).toBe('tesseract');
    expect(a.facts.text.text.replace(/\s+/g, ' ')).toContain('OPEN MONDAY 8AM Espresso bar at the old train station');
    expect(a.description).toContain('PNG image, 1200×630, mostly white');
    expect(a.description).toContain('Text in the image: “OPEN MONDAY 8AM');
    expect(a.altText).toMatch(/^Image with the text: OPEN MONDAY 8AM/);
  });

  it('reads EXIF: when, which camera, the caption written in the file', async () => {
    const a = await provider.analyzeImage(photo);
    expect(a.facts.metadata).toEqual({
      taken: '2024-05-03',
      camera: 'Canon EOS R6',
      caption: 'Espresso bar opening night',
    });
    expect(a.facts.dominant.name).toBe('navy');
    expect(a.facts.text.text).toBe('');
    expect(a.description).toBe(
      `JPEG image, 800×600, mostly navy (${a.facts.dominant.hex}), taken 2024-05-03 with Canon EOS R6. Caption in the file: “Espresso bar opening night”. No legible text found.`,
    );
    expect(a.altText).toBe('Espresso bar opening night');
  });

  it("writes copy from what the image says, within every network's limits", async () => {
    for (const [image, expected] of [
      [textPng, 'OPEN MONDAY 8AM'],
      [photo, 'Espresso bar opening night'],
    ] as const) {
      const analysis = await provider.analyzeImage(image);
      for (const c of await provider.copiesFromMedia(analysis, slugs)) {
        const n = NETWORKS.find((x) => x.slug === c.platform)!;
        expect(() => assertLength(n.slug, c.content, n.capabilities.text!, 'content')).not.toThrow();
        expect(c.content, c.platform).toContain(n.capabilities.text!.max <= 100 ? expected.split(' ')[0] : expected);
      }
    }
    // A plain image without text or metadata: its facts, said as facts.
    const plain = await provider.analyzeImage(
      await sharp({ create: { width: 600, height: 600, channels: 3, background: '#2b8a3e' } })
        .png()
        .toBuffer(),
    );
    const [c] = await provider.copiesFromMedia(plain, ['linkedin']);
    expect(c!.content).toContain('PNG image, 600×600, mostly green');
  });

  it('says when tesseract is not installed instead of pretending', async () => {
    const without = new BuiltinProvider({ networks: NETWORKS, ocr: { binary: 'herald-no-such-tesseract' } });
    const a = await without.analyzeImage(textPng);
    expect(a.facts.text).toEqual({ text: '', reader: 'unavailable', confidence: 0 });
    expect(a.description).toContain('Text in it was not read (tesseract is not installed).');
  });

  it('reads a video: ffprobe facts, text on sampled frames, the file name', async () => {
    const a = await provider.analyzeVideo(video, 'espresso-bar_opening-final.mp4');
    expect(a.facts).toMatchObject({
      kind: 'video',
      format: 'mp4',
      width: 1280,
      height: 720,
      videoCodec: 'h264',
      audioCodec: null,
      nameWords: 'espresso bar opening',
    });
    expect(a.facts.durationSec).toBeCloseTo(3, 0);
    expect(a.facts.text.frames).toBe(3);
    // The same title on every frame is read once.
    expect(a.facts.text.text.replace(/\s+/g, ' ')).toBe('GRAND OPENING MONDAY 8AM');
    expect(a.description).toBe(
      'MP4 video, 3 s, 1280×720, no sound track. File name: “espresso bar opening”. Text on screen: “GRAND OPENING MONDAY 8AM”.',
    );
    const by = Object.fromEntries((await provider.copiesFromMedia(a, slugs)).map((c) => [c.platform, c]));
    expect(by.youtube!.fields.youtube_title).toBe('Espresso Bar Opening');
    expect(by.linkedin!.content).toContain('GRAND OPENING');
  });

  it('gives the same analysis and copy for the same file', async () => {
    const a = await provider.analyzeImage(textPng);
    const b = await provider.analyzeImage(textPng);
    expect(b).toEqual(a);
    expect(await provider.copiesFromMedia(b, slugs)).toEqual(await provider.copiesFromMedia(a, slugs));
  });
});

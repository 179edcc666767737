// Cross-checks the built-in parsers against ffprobe on files made by a real encoder.
// Runs only where ffmpeg is installed (apt-get install -y ffmpeg); probe.test.ts covers the rest everywhere.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeVideo } from '../../src/media/probe.ts';

function installed(binary: string): boolean {
  try {
    execFileSync(binary, ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const haveFfmpeg = installed('ffmpeg') && installed('ffprobe');
if (!haveFfmpeg) {
  // CI installs ffmpeg (.ci/run): there, its absence is a failure, never a skip.
  if (process.env.CI) throw new Error('ffmpeg/ffprobe missing in CI: the ffmpeg cross-check suite must run');
  console.warn(
    '[herald tests] ffmpeg is not installed: the ffprobe cross-check suite does NOT run here (apt-get install -y ffmpeg).',
  );
}

describe.skipIf(!haveFfmpeg)('probe against ffmpeg-made files', () => {
  let dir: string;
  const source = [
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x240:rate=25:duration=2',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=2',
    '-shortest',
  ];
  const ffmpeg = (...args: string[]): void => {
    execFileSync('ffmpeg', ['-v', 'error', '-y', ...args], { stdio: 'pipe' });
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'herald-ffmpeg-'));
    ffmpeg(...source, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', join(dir, 'a.mp4'));
    ffmpeg(...source, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'mov', join(dir, 'a.mov'));
    ffmpeg(...source, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'ipod', join(dir, 'a.m4v'));
    ffmpeg(...source, '-c:v', 'libvpx', '-c:a', 'libopus', join(dir, 'a.webm'));
    ffmpeg(...source, '-c:v', 'libx264', '-c:a', 'aac', join(dir, 'a.mkv'));
    ffmpeg(...source, '-c:v', 'mpeg4', '-c:a', 'libmp3lame', join(dir, 'a.avi'));
    ffmpeg('-i', join(dir, 'a.mp4'), '-c', 'copy', '-metadata:s:v:0', 'rotate=90', join(dir, 'rotated.mp4'));
    ffmpeg(
      ...source,
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-movflags',
      '+faststart',
      join(dir, 'faststart.mp4'),
    );
  }, 60_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['a.mp4', 'mp4', 'h264', 'aac'],
    ['a.mov', 'mov', 'h264', 'aac'],
    ['a.m4v', 'm4v', 'h264', 'aac'],
    ['a.webm', 'webm', 'vp8', 'opus'],
    ['a.mkv', 'mkv', 'h264', 'aac'],
    ['a.avi', 'avi', 'mpeg4', 'mp3'],
  ])('%s: built-in parser agrees with ffprobe', async (name, format, videoCodec, audioCodec) => {
    const path = join(dir, name);
    const viaFfprobe = await probeVideo(path);
    const viaBuiltin = await probeVideo(path, { ffprobePath: false });
    expect(viaFfprobe.prober).toBe('ffprobe');
    expect(viaBuiltin.prober).toBe('builtin');
    for (const info of [viaFfprobe, viaBuiltin]) {
      expect(info).toMatchObject({
        kind: 'video',
        format,
        width: 320,
        height: 240,
        rotation: 0,
        videoCodec,
        audioCodec,
      });
      expect(info.durationSec).toBeGreaterThan(1.9);
      expect(info.durationSec).toBeLessThan(2.2);
    }
    expect(Math.abs((viaBuiltin.durationSec ?? 0) - (viaFfprobe.durationSec ?? 0))).toBeLessThan(0.1);
  });

  it('both probers read the same rotation from the display matrix', async () => {
    const path = join(dir, 'rotated.mp4');
    const viaFfprobe = await probeVideo(path);
    const viaBuiltin = await probeVideo(path, { ffprobePath: false });
    expect([90, 270]).toContain(viaBuiltin.rotation);
    expect(viaFfprobe.rotation).toBe(viaBuiltin.rotation);
    expect(viaBuiltin).toMatchObject({ width: 320, height: 240, displayWidth: 240, displayHeight: 320 });
  });

  it('both probers refuse a fast-start MP4 whose media data was cut off (ffprobe alone reads it without complaint)', async () => {
    const whole = await readFile(join(dir, 'faststart.mp4'));
    const mdat = whole.indexOf('mdat', 0, 'latin1') - 4;
    expect(mdat).toBeGreaterThan(whole.indexOf('moov', 0, 'latin1'));
    // As written (mdat with its size), and with size 0: "the media data runs to the end of the file".
    const toEnd = Buffer.from(whole);
    toEnd.writeUInt32BE(0, mdat);
    for (const [name, bytes] of [
      ['sized', whole],
      ['to-end', toEnd],
    ] as const) {
      const intact = join(dir, `${name}.mp4`);
      await writeFile(intact, bytes);
      expect((await probeVideo(intact)).prober).toBe('ffprobe');
      const cut = join(dir, `${name}-cut.mp4`);
      await writeFile(cut, bytes.subarray(0, bytes.length - 500));
      for (const opts of [{}, { ffprobePath: false as const }]) {
        await expect(probeVideo(cut, opts), `${name} ${JSON.stringify(opts)}`).rejects.toThrow(/the file is truncated/);
      }
    }
  });

  it('ffprobe refuses a recording cut short before its moov box', async () => {
    const path = join(dir, 'broken.mp4');
    await writeFile(path, (await readFile(join(dir, 'a.mov'))).subarray(0, 2000)); // moov is at the end, so it is cut off
    await expect(probeVideo(path)).rejects.toMatchObject({ name: 'MediaProbeError' });
  });
});

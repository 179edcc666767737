// Audio fixtures written in code: a real PCM WAV (a sine tone, which any player and speech-to-text server reads),
// and WebM/MP4 containers with or without a sound track (the media tests' container writers).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeMkv, writeMp4 } from '../../media/helpers/video-fixtures.ts';

/** A mono 16-bit PCM WAV file of a sine tone. */
export function sineWav(seconds = 1, frequency = 440, sampleRate = 16_000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * frequency * i) / sampleRate) * 0.5 * 32767), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16); // PCM format chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28); // bytes per second
  header.writeUInt16LE(2, 32); // block align
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

async function viaFile(write: (path: string) => Promise<void>): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'herald-audio-'));
  try {
    await write(join(dir, 'f'));
    return await readFile(join(dir, 'f'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A WebM recording (as a browser's MediaRecorder makes): Opus sound, or none. */
export const webmAudio = (sound = true) =>
  viaFile((p) => writeMkv(p, { docType: 'webm', audioCodec: sound ? 'A_OPUS' : null }));
export const mp4File = (sound: boolean) => viaFile((p) => writeMp4(p, { audio: sound }));

// Decides whether an uploaded file is audio a speech-to-text model can read, from its bytes (never from its name or
// the client's Content-Type). Containers that may carry video (WebM, MP4) must hold a sound track.
import { AppError } from '../errors.ts';
import { openFileReader, probeContainer } from './probe.ts';
import { MediaProbeError } from './probe/reader.ts';

export interface AudioFormat {
  /** webm, ogg, mp3, wav, m4a, mp4, flac or aac. */
  format: string;
  mime: string;
}

/**
 * What speech-to-text APIs take (OpenAI's list: flac, mp3, mp4, mpeg, mpga, m4a, ogg, wav, webm), by file-type's
 * extension.
 */
const AUDIO: Readonly<Record<string, AudioFormat & { container?: 'webm' | 'mp4' }>> = {
  webm: { format: 'webm', mime: 'audio/webm', container: 'webm' },
  ogg: { format: 'ogg', mime: 'audio/ogg' },
  oga: { format: 'ogg', mime: 'audio/ogg' },
  opus: { format: 'ogg', mime: 'audio/ogg' },
  mp3: { format: 'mp3', mime: 'audio/mpeg' },
  wav: { format: 'wav', mime: 'audio/wav' },
  m4a: { format: 'm4a', mime: 'audio/mp4', container: 'mp4' },
  mp4: { format: 'mp4', mime: 'audio/mp4', container: 'mp4' },
  flac: { format: 'flac', mime: 'audio/flac' },
  aac: { format: 'aac', mime: 'audio/aac' },
};

export const AUDIO_FORMATS_TEXT = 'WebM, Ogg/Opus, MP3, WAV, M4A/MP4, FLAC or AAC';

/** A 422 on the multipart field the audio came in. */
const refuse = (field: string, msg: string, type: string) =>
  new AppError('validation', [{ loc: ['body', field], msg, type }]);

/** The audio format of a file, or a 422 that says what it is instead. */
export async function audioFormatOf(path: string, field: string): Promise<AudioFormat> {
  const detected = await (await import('file-type')).fileTypeFromFile(path);
  const known = detected ? AUDIO[detected.ext] : undefined;
  if (!known) {
    const seen = detected ? ` (the file is ${detected.mime})` : '';
    throw refuse(field, `Not an audio file Herald can transcribe${seen}: send ${AUDIO_FORMATS_TEXT}.`, 'audio_format');
  }
  if (known.container) {
    const reader = await openFileReader(path);
    try {
      const info = await probeContainer(reader, known.container);
      if (!info.audioCodec)
        throw refuse(field, `The ${known.format.toUpperCase()} file has no sound track.`, 'audio_missing');
    } catch (err) {
      if (err instanceof MediaProbeError)
        throw refuse(
          field,
          `Could not read the ${known.format.toUpperCase()} file: ${err.message}.`,
          'audio_unreadable',
        );
      throw err;
    } finally {
      await reader.close();
    }
  }
  return { format: known.format, mime: known.mime };
}

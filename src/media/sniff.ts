// Decides what an upload is from its bytes, never from its name or the client's Content-Type.

export type MediaKind = 'image' | 'video';
export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp';
export type VideoContainer = 'mp4' | 'mov' | 'm4v' | 'avi' | 'mkv' | 'webm';
export type MediaFormat = ImageFormat | VideoContainer;

export type MediaType =
  | { kind: 'image'; format: ImageFormat; mime: string; ext: string }
  | { kind: 'video'; format: VideoContainer; mime: string; ext: string };

export class UnsupportedMediaError extends Error {
  /** What the bytes looked like, when file-type recognised them at all. */
  readonly detectedMime: string | undefined;

  constructor(detectedMime: string | undefined) {
    super(detectedMime ? `${detectedMime} is not a supported image or video format` : 'unrecognised file format');
    this.name = 'UnsupportedMediaError';
    this.detectedMime = detectedMime;
  }
}

/** Bytes from the start of a file that are enough for sniffBuffer. */
export const SNIFF_BYTES = 4100;

// Keyed by file-type's extension: several of its results share a MIME type (f4v, m4p are video/mp4).
const BY_EXT: Readonly<Record<string, MediaType>> = {
  jpg: { kind: 'image', format: 'jpeg', mime: 'image/jpeg', ext: 'jpg' },
  png: { kind: 'image', format: 'png', mime: 'image/png', ext: 'png' },
  // Animated PNG is still a PNG to every consumer that matters.
  apng: { kind: 'image', format: 'png', mime: 'image/png', ext: 'png' },
  gif: { kind: 'image', format: 'gif', mime: 'image/gif', ext: 'gif' },
  webp: { kind: 'image', format: 'webp', mime: 'image/webp', ext: 'webp' },
  mp4: { kind: 'video', format: 'mp4', mime: 'video/mp4', ext: 'mp4' },
  mov: { kind: 'video', format: 'mov', mime: 'video/quicktime', ext: 'mov' },
  m4v: { kind: 'video', format: 'm4v', mime: 'video/x-m4v', ext: 'm4v' },
  avi: { kind: 'video', format: 'avi', mime: 'video/vnd.avi', ext: 'avi' },
  mkv: { kind: 'video', format: 'mkv', mime: 'video/matroska', ext: 'mkv' },
  webm: { kind: 'video', format: 'webm', mime: 'video/webm', ext: 'webm' },
};

export const SUPPORTED_FORMATS: readonly MediaFormat[] = [...new Set(Object.values(BY_EXT).map((t) => t.format))];

/** Maps a file-type result to Herald's media type, or null when Herald does not accept it. */
export function mediaTypeOf(detected: { ext: string; mime: string } | undefined): MediaType | null {
  if (!detected) return null;
  return BY_EXT[detected.ext] ?? null;
}

export async function sniffBuffer(bytes: Uint8Array): Promise<MediaType> {
  const detected = await (await import('file-type')).fileTypeFromBuffer(bytes);
  const type = mediaTypeOf(detected);
  if (!type) throw new UnsupportedMediaError(detected?.mime);
  return type;
}

export async function sniffFile(path: string): Promise<MediaType> {
  const detected = await (await import('file-type')).fileTypeFromFile(path);
  const type = mediaTypeOf(detected);
  if (!type) throw new UnsupportedMediaError(detected?.mime);
  return type;
}

// Uploading a file to the media library with progress: one multipart request (POST /media/upload) for ordinary
// files, the chunked routes (init → chunk × N → complete, docs/media.md) for large ones, so a lost connection costs
// one chunk, not the file. fetch() reports no upload progress, hence XMLHttpRequest for the bytes.
import { appHeaders } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import { chunkRanges } from './format.ts';

/** Files larger than this go through the chunked routes. */
export const CHUNKED_ABOVE = 10 * 1024 * 1024;
const CHUNK_TRIES = 3;

export interface UploadedMedia {
  media_id: string;
  public_url: string;
  filename: string;
}

export type Progress = (loaded: number, total: number) => void;

export function mediaTypeOf(file: File): 'image' | 'video' {
  return file.type.startsWith('video/') ? 'video' : 'image';
}

function send<T>(method: string, url: string, body: FormData | string, onProgress?: (loaded: number) => void) {
  return new Promise<T>((resolve, reject) => {
    void appHeaders(method).then((headers) => {
      const xhr = new XMLHttpRequest();
      xhr.open(method, url);
      xhr.withCredentials = true;
      xhr.setRequestHeader('Accept', 'application/json');
      if (typeof body === 'string') xhr.setRequestHeader('Content-Type', 'application/json');
      for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
      if (onProgress) xhr.upload.onprogress = (e) => onProgress(e.loaded);
      xhr.onload = () => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(xhr.responseText);
        } catch {
          parsed = undefined;
        }
        if (xhr.status >= 200 && xhr.status < 300) resolve(parsed as T);
        else reject(ApiError.fromBody(parsed, xhr.status));
      };
      xhr.onerror = () => reject(new TypeError('network'));
      xhr.send(body);
    }, reject);
  });
}

async function direct(file: File, onProgress: Progress): Promise<UploadedMedia> {
  const form = new FormData();
  form.append('media_type', mediaTypeOf(file));
  form.append('media', file, file.name);
  return send<UploadedMedia>('POST', '/media/upload', form, (loaded) =>
    onProgress(Math.min(loaded, file.size), file.size),
  );
}

async function chunked(file: File, onProgress: Progress): Promise<UploadedMedia> {
  const mediaType = mediaTypeOf(file);
  const chunkSize = 1024 * 1024;
  const parts = chunkRanges(file.size, chunkSize);
  const init = await send<{ upload_id: string; chunk_size: number }>(
    'POST',
    '/media/storage/init',
    JSON.stringify({ filename: file.name, file_size: file.size, total_chunks: parts.length, media_type: mediaType }),
  );
  let done = 0;
  for (const part of parts) {
    for (let attempt = 1; ; attempt++) {
      const form = new FormData();
      form.append('upload_id', init.upload_id);
      form.append('chunk_number', String(part.number));
      form.append('file', file.slice(part.start, part.end), file.name);
      try {
        await send('POST', '/media/storage/chunk', form, (loaded) => onProgress(done + loaded, file.size));
        break;
      } catch (err) {
        // A chunk may be sent again (the route accepts repeats): retry a dropped connection, not a refusal.
        if (!(err instanceof TypeError) || attempt >= CHUNK_TRIES) throw err;
      }
    }
    done += part.end - part.start;
    onProgress(done, file.size);
  }
  return send<UploadedMedia>(
    'POST',
    '/media/storage/complete',
    JSON.stringify({ upload_id: init.upload_id, media_type: mediaType }),
  );
}

export function uploadMedia(file: File, onProgress: Progress): Promise<UploadedMedia> {
  return file.size > CHUNKED_ABOVE ? chunked(file, onProgress) : direct(file, onProgress);
}

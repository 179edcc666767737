// Media uploads with progress: XMLHttpRequest (fetch reports no upload progress). Small files go in one multipart
// request (POST /media/upload); large ones in chunks (POST /media/storage/init, /chunk per part, /complete), each
// chunk retried on a network failure, so a flaky connection resumes where it stopped instead of starting over.
import { api, appHeaders, must } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import type { paths } from '../api/schema.d.ts';

export type MediaRecord = paths['/media']['get']['responses'][200]['content']['application/json']['media'][number];

/** Files above this size are sent in chunks. */
export const CHUNKED_ABOVE = 8 * 1024 * 1024;
const CHUNK_RETRIES = 3;

export interface UploadOptions {
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

function send(method: string, url: string, body: XMLHttpRequestBodyInit, o: UploadOptions): Promise<unknown> {
  return appHeaders(method).then(
    (headers) =>
      new Promise((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open(method, url);
        xhr.withCredentials = true;
        xhr.responseType = 'json';
        for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
        xhr.setRequestHeader('accept', 'application/json');
        xhr.upload.onprogress = (e) => {
          if (e.lengthComputable) o.onProgress?.(e.loaded / e.total);
        };
        xhr.onload = () =>
          xhr.status >= 200 && xhr.status < 300
            ? resolve(xhr.response)
            : reject(ApiError.fromBody(xhr.response, xhr.status));
        xhr.onerror = () => reject(new TypeError('network error'));
        xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
        o.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
        xhr.send(body);
      }),
  );
}

export const mediaTypeOf = (file: File): 'image' | 'video' => (file.type.startsWith('video/') ? 'video' : 'image');

/** Uploads one file to the workspace library and gives its media record. */
export async function uploadFile(file: File, o: UploadOptions = {}): Promise<MediaRecord> {
  if (file.size > CHUNKED_ABOVE) return uploadChunked(file, o);
  const form = new FormData();
  form.append('media_type', mediaTypeOf(file));
  form.append('media', file, file.name);
  const res = (await send('POST', '/media/upload', form, o)) as MediaRecord;
  o.onProgress?.(1);
  return res;
}

async function uploadChunked(file: File, o: UploadOptions): Promise<MediaRecord> {
  const media_type = mediaTypeOf(file);
  const guess = 1024 * 1024;
  const init = await must(
    api.POST('/media/storage/init', {
      body: { filename: file.name, file_size: file.size, total_chunks: Math.ceil(file.size / guess), media_type },
    }),
  );
  const size = init.chunk_size;
  const total = Math.ceil(file.size / size);
  for (let n = 1; n <= total; n++) {
    const part = file.slice((n - 1) * size, Math.min(n * size, file.size));
    for (let attempt = 1; ; attempt++) {
      const form = new FormData();
      form.append('upload_id', init.upload_id);
      form.append('chunk_number', String(n));
      form.append('file', part, file.name);
      try {
        await send('POST', '/media/storage/chunk', form, {
          ...o,
          onProgress: (f) => o.onProgress?.(((n - 1 + f) * size) / file.size),
        });
        break;
      } catch (err) {
        // Only a dropped connection is worth another try; the API's refusals are final.
        if (!(err instanceof TypeError) || attempt >= CHUNK_RETRIES || o.signal?.aborted) throw err;
      }
    }
  }
  const done = await must(
    api.POST('/media/storage/complete', {
      body: { upload_id: init.upload_id, media_type, original_filename: file.name },
    }),
  );
  o.onProgress?.(1);
  return done;
}

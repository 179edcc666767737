// Media uploads with progress: XMLHttpRequest (fetch reports no upload progress). Small files go in one multipart
// request (POST /media/upload); large ones in chunks (POST /media/storage/init, /chunk per part, /complete), each
// chunk retried on a network failure, so a flaky connection resumes where it stopped instead of starting over; the
// session is kept in localStorage (upload-sessions.ts), so after a reload choosing the same file sends only the chunks
// the server lacks.
import { api, appHeaders, currentWorkspaceId, must } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import type { paths } from '../api/schema.d.ts';
import { chunksToSend, fingerprint, forgetSession, saveSession, savedSession } from './upload-sessions.ts';

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

/** A chunked session to continue: the one saved for this file, if the server still has it, with what it lacks. */
async function resumable(workspaceId: string, file: File) {
  const saved = savedSession(workspaceId, fingerprint(file));
  if (!saved) return null;
  const total = Math.ceil(file.size / saved.chunk_size);
  const progress = await api.GET('/media/storage/progress', { params: { query: { upload_id: saved.upload_id } } });
  const todo = progress.data ? chunksToSend(progress.data, total) : null;
  if (todo === null) {
    forgetSession(workspaceId, fingerprint(file));
    return null;
  }
  return { uploadId: saved.upload_id, size: saved.chunk_size, total, todo };
}

async function uploadChunked(file: File, o: UploadOptions): Promise<MediaRecord> {
  const media_type = mediaTypeOf(file);
  const workspaceId = currentWorkspaceId() ?? '';
  const fp = fingerprint(file);
  let session = await resumable(workspaceId, file).catch(() => null);
  if (!session) {
    const guess = 1024 * 1024;
    const init = await must(
      api.POST('/media/storage/init', {
        body: { filename: file.name, file_size: file.size, total_chunks: Math.ceil(file.size / guess), media_type },
      }),
    );
    const total = Math.ceil(file.size / init.chunk_size);
    saveSession(workspaceId, fp, { upload_id: init.upload_id, chunk_size: init.chunk_size, total_chunks: total });
    session = {
      uploadId: init.upload_id,
      size: init.chunk_size,
      total,
      todo: Array.from({ length: total }, (_, i) => i + 1),
    };
  }
  const { uploadId, size, total, todo } = session;
  let done = total - todo.length;
  o.onProgress?.((done * size) / file.size);
  for (const n of todo) {
    const part = file.slice((n - 1) * size, Math.min(n * size, file.size));
    for (let attempt = 1; ; attempt++) {
      const form = new FormData();
      form.append('upload_id', uploadId);
      form.append('chunk_number', String(n));
      form.append('file', part, file.name);
      try {
        await send('POST', '/media/storage/chunk', form, {
          ...o,
          onProgress: (f) => o.onProgress?.(Math.min(1, ((done + f) * size) / file.size)),
        });
        break;
      } catch (err) {
        // Only a dropped connection is worth another try; the API's refusals are final.
        if (!(err instanceof TypeError) || attempt >= CHUNK_RETRIES || o.signal?.aborted) throw err;
      }
    }
    done++;
  }
  try {
    const record = await must(
      api.POST('/media/storage/complete', {
        body: { upload_id: uploadId, media_type, original_filename: file.name },
      }),
    );
    forgetSession(workspaceId, fp);
    o.onProgress?.(1);
    return record;
  } catch (err) {
    // A refusal of the file itself is final: the next try starts afresh. A dropped connection keeps the session.
    if (err instanceof ApiError) forgetSession(workspaceId, fp);
    throw err;
  }
}

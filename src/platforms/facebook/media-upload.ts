// Page video uploads on graph-video.facebook.com: one call with `file_url` (Facebook fetches Herald's public URL), or
// for files too large for that, the chunked upload in phases — start (→ session and first byte range), transfer
// (each range Facebook asks for) and finish (publishes with the description). Session, video id and the next byte
// range are journaled as they arrive, so a crashed upload resumes instead of starting over.
import type { Journal, PublishMedia } from '../publishing.ts';
import type { AdapterDeps } from '../types.ts';
import { PlatformError } from '../types.ts';
import { FACEBOOK_GRAPH_VERSION, facebookUrls } from './config.ts';
import { facebookOk } from './errors.ts';
import { isRecord, num, required, str } from '../meta/graph.ts';

/** Journal step names of video uploads. */
export const videoSteps = {
  video: 'video',
  session: 'video:session',
  range: 'video:range',
  finishing: 'video:finishing',
} as const;

export interface VideoStatus {
  /** processing, ready, upload_complete, error … as Graph reports `status.video_status`. */
  state: string;
  error: string | null;
  permalink: string | null;
}

export interface VideoUpload {
  pageId: string;
  pageToken: string;
  video: PublishMedia;
  thumbnail: PublishMedia | undefined;
  description: string;
  title: string | undefined;
}

async function bytesOf(media: PublishMedia, range?: { start: number; end: number }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await media.open(range))
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Graph takes files only as multipart parts; plain fields go along in the same form. */
async function formWith(
  fields: Record<string, string | undefined>,
  files: Record<string, { media: PublishMedia; range?: { start: number; end: number } }>,
): Promise<FormData> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.append(k, v);
  for (const [k, f] of Object.entries(files)) {
    const bytes = await bytesOf(f.media, f.range);
    form.append(
      k,
      new Blob([new Uint8Array(bytes)], { type: f.range ? 'application/octet-stream' : f.media.mime }),
      `${f.media.id}.${f.media.format}`,
    );
  }
  return form;
}

function range(start: unknown, end: unknown): { start: number; end: number } {
  const s = num(start);
  const e = num(end);
  if (s === null || e === null || e < s)
    throw new PlatformError('facebook', 'transient', 'facebook answered a video upload without a valid byte range');
  return { start: s, end: e };
}

function phaseError(status: Record<string, unknown>): string | null {
  for (const phase of ['uploading_phase', 'processing_phase', 'publishing_phase']) {
    const p = status[phase];
    const errors = isRecord(p) && Array.isArray(p.errors) ? p.errors.filter(isRecord) : [];
    const message = errors.map((e) => str(e.message)).find((m) => m !== null);
    if (message) return message;
  }
  return null;
}

export function facebookVideos(deps: AdapterDeps) {
  const { graphBase, graphVideoBase } = facebookUrls(deps);

  async function status(pageToken: string, videoId: string): Promise<VideoStatus> {
    const res = await deps.http.request('facebook', {
      url: `${graphBase}/${FACEBOOK_GRAPH_VERSION}/${encodeURIComponent(videoId)}`,
      query: { fields: 'status,permalink_url' },
      headers: { authorization: `Bearer ${pageToken}` },
    });
    const body = facebookOk(res);
    const st = isRecord(body.status) ? body.status : {};
    const state = str(st.video_status) ?? 'processing';
    return {
      state,
      error: state === 'error' ? (phaseError(st) ?? 'video processing failed') : null,
      permalink: str(body.permalink_url),
    };
  }

  async function call(
    u: VideoUpload,
    fields: Record<string, string | undefined>,
    files: Parameters<typeof formWith>[1] = {},
  ): Promise<Record<string, unknown>> {
    const url = `${graphVideoBase}/${FACEBOOK_GRAPH_VERSION}/${encodeURIComponent(u.pageId)}/videos`;
    const headers = { authorization: `Bearer ${u.pageToken}` };
    const withFiles = Object.keys(files).length > 0;
    const res = await deps.http.request('facebook', {
      method: 'POST',
      url,
      headers,
      ...(withFiles ? { body: await formWith(fields, files) } : { form: fields }),
      timeoutMs: 300_000,
    });
    return facebookOk(res);
  }

  const thumb = (u: VideoUpload): Parameters<typeof formWith>[1] =>
    u.thumbnail ? { thumb: { media: u.thumbnail } } : {};

  /** Facebook downloads the file itself; returns the video id. */
  async function byUrl(u: VideoUpload, journal: Journal): Promise<string> {
    const body = await call(
      u,
      { file_url: u.video.url, description: u.description, title: u.title, published: 'true' },
      thumb(u),
    );
    const id = required('facebook', body.id, 'a video id');
    await journal.record(videoSteps.video, id);
    return id;
  }

  async function start(
    u: VideoUpload,
    journal: Journal,
  ): Promise<{ session: string; videoId: string; next: { start: number; end: number } }> {
    const body = await call(u, { upload_phase: 'start', file_size: String(u.video.size) });
    const session = required('facebook', body.upload_session_id, 'an upload session id');
    const videoId = required('facebook', body.video_id, 'a video id');
    await journal.record(videoSteps.session, JSON.stringify({ session, videoId }));
    const next = range(body.start_offset, body.end_offset);
    await journal.record(videoSteps.range, `${next.start}-${next.end}`);
    return { session, videoId, next };
  }

  function resumed(
    journal: Journal,
  ): { session: string; videoId: string; next: { start: number; end: number } } | null {
    try {
      const saved: unknown = JSON.parse(journal.steps[videoSteps.session] ?? '');
      const [s, e] = (journal.steps[videoSteps.range] ?? '').split('-');
      if (!isRecord(saved)) return null;
      const session = str(saved.session);
      const videoId = str(saved.videoId);
      return session && videoId ? { session, videoId, next: range(s, e) } : null;
    } catch {
      return null;
    }
  }

  async function transferAll(
    u: VideoUpload,
    journal: Journal,
    s: { session: string; next: { start: number; end: number } },
  ): Promise<void> {
    let next = s.next;
    // Facebook names each range; start == end means it has every byte.
    while (next.start < next.end) {
      const body = await call(
        u,
        { upload_phase: 'transfer', upload_session_id: s.session, start_offset: String(next.start) },
        // Graph's end_offset is exclusive; storage ranges are inclusive.
        { video_file_chunk: { media: u.video, range: { start: next.start, end: next.end - 1 } } },
      );
      next = range(body.start_offset, body.end_offset);
      await journal.record(videoSteps.range, `${next.start}-${next.end}`);
    }
  }

  /**
   * Chunked upload, resuming a journaled session. If the resumed session is refused (a chunk landed just before a
   * crash, so the journaled range is stale, or the session expired), one fresh session starts over; an unfinished
   * session publishes nothing, so abandoning it is safe.
   */
  async function chunked(u: VideoUpload, journal: Journal): Promise<string> {
    const old = resumed(journal);
    let s = old ?? (await start(u, journal));
    try {
      await transferAll(u, journal, s);
    } catch (err) {
      if (!old || !(err instanceof PlatformError) || err.kind !== 'invalid_content') throw err;
      s = await start(u, journal);
      await transferAll(u, journal, s);
    }
    const retried = journal.steps[videoSteps.finishing] === s.session;
    await journal.record(videoSteps.finishing, s.session);
    try {
      await call(
        u,
        {
          upload_phase: 'finish',
          upload_session_id: s.session,
          description: u.description,
          title: u.title,
          published: 'true',
        },
        thumb(u),
      );
    } catch (err) {
      // A finish that went through just before a crash is refused when repeated; the video then already exists.
      if (!retried || !(err instanceof PlatformError) || err.kind !== 'invalid_content') throw err;
      await status(u.pageToken, s.videoId).catch(() => {
        throw err;
      });
    }
    await journal.record(videoSteps.video, s.videoId);
    return s.videoId;
  }

  return { byUrl, chunked, status };
}

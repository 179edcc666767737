// Images API and Videos API uploads. Every id LinkedIn hands out (image URN, video URN with its upload session, each
// part's ETag) is journaled before the next call, so a retry after a crash picks up where the dead attempt stopped
// instead of uploading (and orphaning) the same bytes again.
import { Readable } from 'node:stream';
import type { Journal, PublishMedia } from '../publishing.ts';
import type { AdapterDeps } from '../types.ts';
import { PlatformError } from '../types.ts';
import { linkedinUrls, restHeaders } from './config.ts';
import { linkedinOk } from './errors.ts';

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export type MediaState = 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED';

export interface MediaStatus {
  status: MediaState;
  failure: string | null;
}

interface VideoSession {
  uploadToken: string;
  parts: { url: string; first: number; last: number }[];
  thumbnailUrl: string | null;
}

/** Journal step names, shared with the publisher and its tests. */
export const steps = {
  image: (i: number) => `image:${i}`,
  imageUploaded: (i: number) => `image:${i}:uploaded`,
  video: 'video',
  videoSession: 'video:session',
  videoPart: (i: number) => `video:part:${i}`,
  videoThumbnail: 'video:thumbnail',
  videoFinalized: 'video:finalized',
} as const;

function sessionOf(value: unknown): VideoSession | null {
  if (!isRecord(value) || typeof value.uploadToken !== 'string' || !Array.isArray(value.parts)) return null;
  const parts: VideoSession['parts'] = [];
  for (const p of value.parts) {
    const url = isRecord(p) ? str(p.uploadUrl ?? p.url) : null;
    const first = isRecord(p) ? Number(p.firstByte ?? p.first) : Number.NaN;
    const last = isRecord(p) ? Number(p.lastByte ?? p.last) : Number.NaN;
    if (!url || !Number.isInteger(first) || !Number.isInteger(last) || last < first) return null;
    parts.push({ url, first, last });
  }
  return parts.length > 0
    ? { uploadToken: value.uploadToken, parts, thumbnailUrl: str(value.thumbnailUrl ?? value.thumbnailUploadUrl) }
    : null;
}

function parseJson(text: string | undefined): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

export function linkedinMedia(deps: AdapterDeps) {
  const { apiBase } = linkedinUrls(deps);

  async function rest(token: string, method: 'GET' | 'POST', path: string, json?: unknown): Promise<Json> {
    const res = await deps.http.request('linkedin', {
      method,
      url: `${apiBase}${path}`,
      headers: restHeaders(token),
      ...(json === undefined ? {} : { json }),
    });
    return linkedinOk(res, 'api', deps.clock);
  }

  /**
   * PUTs bytes straight from storage. The bearer goes along on video parts too: the Videos API page says the signed
   * URL needs none, yet production clients send it and it is accepted, so both readings are satisfied.
   */
  async function put(
    token: string,
    url: string,
    media: PublishMedia,
    range?: { start: number; end: number },
  ): Promise<string | null> {
    const stream = await media.open(range);
    const length = range ? range.end - range.start + 1 : media.size;
    try {
      const res = await deps.http.request('linkedin', {
        method: 'PUT',
        url,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/octet-stream',
          'content-length': String(length),
        },
        body: Readable.toWeb(stream) as ReadableStream<Uint8Array>,
        // Parts are up to 4 MB and whole images larger; slow links need more than the default API timeout.
        timeoutMs: 300_000,
      });
      linkedinOk(res, 'api', deps.clock);
      return res.headers.get('etag');
    } finally {
      // A request that failed before reading the body would otherwise keep the storage handle open.
      stream.destroy();
    }
  }

  async function initImage(token: string, owner: string): Promise<{ urn: string; uploadUrl: string }> {
    const body = await rest(token, 'POST', '/rest/images?action=initializeUpload', {
      initializeUploadRequest: { owner },
    });
    const value = isRecord(body.value) ? body.value : {};
    const urn = str(value.image);
    const uploadUrl = str(value.uploadUrl);
    if (!urn || !uploadUrl)
      throw new PlatformError(
        'linkedin',
        'transient',
        'linkedin initializeUpload answered without an image URN or upload URL',
      );
    return { urn, uploadUrl };
  }

  /**
   * The image URN for slot `i`, uploading it unless the journal shows it went up already. An image initialized by an
   * attempt that died before its PUT is abandoned: its upload URL was not kept, and a fresh one costs a single call.
   */
  async function uploadImage(
    token: string,
    owner: string,
    media: PublishMedia,
    journal: Journal,
    i: number,
  ): Promise<string> {
    const known = journal.steps[steps.image(i)];
    if (known && journal.steps[steps.imageUploaded(i)]) return known;
    const { urn, uploadUrl } = await initImage(token, owner);
    await journal.record(steps.image(i), urn);
    // One PUT of the whole file: the Images API keeps only the last PUT, so chunking would corrupt it.
    await put(token, uploadUrl, media);
    await journal.record(steps.imageUploaded(i), urn);
    return urn;
  }

  async function startVideo(
    token: string,
    owner: string,
    media: PublishMedia,
    thumbnail: PublishMedia | undefined,
    journal: Journal,
  ): Promise<{ urn: string; session: VideoSession }> {
    const body = await rest(token, 'POST', '/rest/videos?action=initializeUpload', {
      initializeUploadRequest: {
        owner,
        fileSizeBytes: media.size,
        uploadCaptions: false,
        uploadThumbnail: thumbnail !== undefined,
      },
    });
    const value = isRecord(body.value) ? body.value : {};
    const urn = str(value.video);
    const session = sessionOf({
      uploadToken: value.uploadToken ?? '',
      parts: value.uploadInstructions,
      thumbnailUrl: value.thumbnailUploadUrl,
    });
    if (!urn || !session)
      throw new PlatformError(
        'linkedin',
        'transient',
        'linkedin initializeUpload answered without a video URN or upload instructions',
      );
    await journal.record(steps.video, urn);
    // The part URLs are signed for this one asset and expire within days; a resumed upload needs them.
    await journal.record(steps.videoSession, JSON.stringify(session));
    return { urn, session };
  }

  /** ETags are journaled as `<video urn>|<etag>`, so those of an abandoned session are never sent with another. */
  async function sendParts(
    token: string,
    urn: string,
    session: VideoSession,
    media: PublishMedia,
    journal: Journal,
  ): Promise<string[]> {
    const etags: string[] = [];
    for (const [i, part] of session.parts.entries()) {
      const saved = journal.steps[steps.videoPart(i)];
      let etag = saved?.startsWith(`${urn}|`) ? saved.slice(urn.length + 1) : '';
      if (!etag) {
        const raw = await put(token, part.url, media, { start: part.first, end: part.last });
        // finalizeUpload wants the ETag values themselves, without HTTP's surrounding quotes.
        etag = raw?.replace(/^W\//, '').replace(/^"|"$/g, '') ?? '';
        if (!etag)
          throw new PlatformError('linkedin', 'transient', `linkedin accepted video part ${i} without an ETag`);
        await journal.record(steps.videoPart(i), `${urn}|${etag}`);
      }
      etags.push(etag);
    }
    return etags;
  }

  /** Uploads (or finishes uploading) the video and finalizes it; returns its URN, which then processes at LinkedIn. */
  async function uploadVideo(
    token: string,
    owner: string,
    media: PublishMedia,
    thumbnail: PublishMedia | undefined,
    journal: Journal,
  ): Promise<string> {
    const journaled = journal.steps[steps.video];
    if (journaled && journal.steps[steps.videoFinalized] === journaled) return journaled;
    const resumed = journaled ? sessionOf(parseJson(journal.steps[steps.videoSession])) : null;
    let current =
      journaled && resumed
        ? { urn: journaled, session: resumed }
        : await startVideo(token, owner, media, thumbnail, journal);
    let etags: string[];
    try {
      etags = await sendParts(token, current.urn, current.session, media, journal);
    } catch (err) {
      // A journaled session can go stale (EXPIRED_UPLOAD_URL): start over once. An unfinalized video is never posted.
      const stale =
        err instanceof PlatformError && (err.code === 'EXPIRED_UPLOAD_URL' || err.kind === 'invalid_content');
      if (!(journaled && resumed) || !stale) throw err;
      current = await startVideo(token, owner, media, thumbnail, journal);
      etags = await sendParts(token, current.urn, current.session, media, journal);
    }
    const { urn, session } = current;
    if (thumbnail && session.thumbnailUrl && journal.steps[steps.videoThumbnail] !== urn) {
      await put(token, session.thumbnailUrl, thumbnail);
      await journal.record(steps.videoThumbnail, urn);
    }
    await rest(token, 'POST', '/rest/videos?action=finalizeUpload', {
      finalizeUploadRequest: { video: urn, uploadToken: session.uploadToken, uploadedPartIds: etags },
    });
    await journal.record(steps.videoFinalized, urn);
    return urn;
  }

  async function status(token: string, urn: string): Promise<MediaStatus> {
    const family = urn.startsWith('urn:li:video:') ? 'videos' : 'images';
    const body = await rest(token, 'GET', `/rest/${family}/${encodeURIComponent(urn)}`);
    const raw = str(body.status);
    const known: MediaState[] = ['WAITING_UPLOAD', 'PROCESSING', 'AVAILABLE', 'PROCESSING_FAILED'];
    // An unknown future state is read as "not ready yet" rather than as a failure.
    const state = raw && (known as string[]).includes(raw) ? (raw as MediaState) : 'PROCESSING';
    return {
      status: state,
      failure: state === 'PROCESSING_FAILED' ? (str(body.processingFailureReason) ?? 'processing failed') : null,
    };
  }

  return { uploadImage, uploadVideo, status };
}

export type LinkedInMedia = ReturnType<typeof linkedinMedia>;

// Publishing to a Facebook Page with that Page's own token: text (/{page}/feed), one photo (/{page}/photos by URL),
// several photos (each uploaded unpublished, then one feed post with attached_media) and video (/{page}/videos on
// graph-video.facebook.com, polled until Facebook has processed it). Post ids are Graph's `{page-id}_{post-id}`;
// permalinks always come from Graph's `permalink_url`.
//
// Graph has no idempotency key either. Every id is journaled before the next call, and a retry of an attempt whose
// outcome is unknown first asks Graph about the journaled photos (`page_story_id`) before posting again.
import type { Journal, PublishOutcome, PublishRequest, Publisher } from '../publishing.ts';
import type { AdapterDeps, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { FACEBOOK_GRAPH_VERSION, facebookUrls, pageTokenKey } from './config.ts';
import { facebookOk } from './errors.ts';
import { FACEBOOK_CAPABILITIES } from './limits.ts';
import { safeText } from '../errors.ts';
import { required, str } from '../meta/graph.ts';
import { facebookVideos, videoSteps } from './media-upload.ts';

const MAX_MESSAGE = FACEBOOK_CAPABILITIES.text!.max;
/** Facebook's one-request video upload takes files up to 1 GB; larger ones go through the chunked upload. */
const FILE_URL_MAX_BYTES = 1024 ** 3;

/** Journal step names (video upload ones live in media-upload.ts). */
export const steps = {
  ...videoSteps,
  photo: (i: number) => `photo:${i}`,
  postAttempt: 'post:attempt',
  post: 'post',
} as const;

export interface FacebookPublisherOptions {
  /** Videos larger than this use the chunked upload instead of `file_url` (tests lower it). */
  chunkedAboveBytes?: number;
}

interface Page {
  id: string;
  token: string;
}

type Kind = 'text' | 'photo' | 'photos' | 'video';

const invalid = (message: string): PlatformError => new PlatformError('facebook', 'invalid_content', message);

function pageOf(tokens: TokenSet, req: PublishRequest): Page {
  const dest = req.destination;
  if (dest?.kind !== 'page') {
    throw new PlatformError(
      'facebook',
      'unsupported',
      'facebook publishes to Pages only (the API cannot post to a personal profile); choose a Page',
    );
  }
  const token = tokens.extra?.[pageTokenKey(dest.id)];
  if (!token) {
    throw new PlatformError(
      'facebook',
      'permission',
      `Page ${dest.id} is not managed by the connected account (no Page token); reconnect Facebook and select that Page`,
    );
  }
  return { id: dest.id, token };
}

/** Everything checkable without the network, so a doomed post costs no upload. */
function kindOf(req: PublishRequest): Kind {
  if (req.text.length > MAX_MESSAGE)
    throw invalid(`facebook post text is ${req.text.length} characters; the limit is ${MAX_MESSAGE}`);
  const images = req.media.filter((m) => m.kind === 'image').length;
  const videos = req.media.filter((m) => m.kind === 'video').length;
  if (req.postType === 'text' && req.media.length === 0) {
    if (!req.text.trim()) throw invalid('facebook needs text for a post without media');
    return 'text';
  }
  if (req.postType === 'image' && images === 1 && videos === 0) return 'photo';
  if (req.postType === 'carousel' && images >= 2 && videos === 0) return 'photos';
  if (req.postType === 'video' && videos === 1 && req.media.length === 1) return 'video';
  throw invalid(`facebook cannot publish a ${req.postType} post with ${images} image(s) and ${videos} video(s)`);
}

export function facebookPublisher(deps: AdapterDeps, opts: FacebookPublisherOptions = {}): Publisher {
  const graph = `${facebookUrls(deps).graphBase}/${FACEBOOK_GRAPH_VERSION}`;
  const videos = facebookVideos(deps);
  const chunkedAbove = opts.chunkedAboveBytes ?? FILE_URL_MAX_BYTES;
  const bearer = (page: Page) => ({ authorization: `Bearer ${page.token}` });

  async function post(
    page: Page,
    path: string,
    form: Record<string, string | undefined>,
  ): Promise<Record<string, unknown>> {
    const res = await deps.http.request('facebook', {
      method: 'POST',
      url: `${graph}/${path}`,
      headers: bearer(page),
      form,
    });
    return facebookOk(res);
  }

  async function read(page: Page, id: string, fields: string): Promise<Record<string, unknown> | null> {
    const res = await deps.http.request('facebook', {
      url: `${graph}/${encodeURIComponent(id)}`,
      query: { fields },
      headers: bearer(page),
    });
    try {
      return facebookOk(res);
    } catch (err) {
      if (err instanceof PlatformError && err.kind === 'not_found') return null;
      throw err;
    }
  }

  /** Graph answers some permalinks (videos) relative to facebook.com. */
  const absolute = (link: string | null): string | null =>
    link?.startsWith('/') ? `${facebookUrls(deps).webBase}${link}` : link;

  /**
   * The post's permalink_url. The post already exists and is journaled, so a failed read costs the link, not the
   * publish: the outcome then carries null rather than an error that would invite a retry.
   */
  async function permalink(page: Page, postId: string, fallback: string | null = null): Promise<string | null> {
    try {
      return absolute(str((await read(page, postId, 'permalink_url'))?.permalink_url)) ?? absolute(fallback);
    } catch (err) {
      if (!(err instanceof PlatformError)) throw err;
      deps.logger.warn({ platform: 'facebook', kind: err.kind }, 'facebook permalink unavailable after publishing');
      return absolute(fallback);
    }
  }

  async function published(
    page: Page,
    postId: string,
    journal: Journal,
    fallback: string | null = null,
  ): Promise<PublishOutcome> {
    if (journal.steps[steps.post] !== postId) await journal.record(steps.post, postId);
    return { state: 'published', postId, permalink: await permalink(page, postId, fallback) };
  }

  /** A post this target already made, found through journaled ids only. */
  async function findPost(page: Page, journal: Journal): Promise<string | null> {
    const known = journal.steps[steps.post];
    if (known) return (await read(page, known, 'id')) ? known : null;
    // A photo knows the story that shows it: set once a photo post or multi-photo post went through.
    const photo = journal.steps[steps.photo(0)];
    if (photo) return str((await read(page, photo, 'page_story_id'))?.page_story_id);
    const video = journal.steps[steps.video];
    if (video) {
      const s = await videos.status(page.token, video).catch((err: unknown) => {
        if (err instanceof PlatformError && err.kind === 'not_found') return null;
        throw err;
      });
      return s?.state === 'ready' ? `${page.id}_${video}` : null;
    }
    return null;
  }

  async function uploadPhoto(page: Page, req: PublishRequest, i: number, journal: Journal): Promise<string> {
    const known = journal.steps[steps.photo(i)];
    if (known) return known;
    const m = req.media[i];
    if (!m) throw invalid(`facebook photo ${i} is missing`);
    // Unpublished: the photo waits, invisible, for the feed post that attaches it.
    const body = await post(page, `${page.id}/photos`, {
      url: m.url,
      published: 'false',
      alt_text_custom: m.altText ?? undefined,
    });
    const id = required('facebook', body.id, 'a photo id');
    await journal.record(steps.photo(i), id);
    return id;
  }

  async function create(
    page: Page,
    req: PublishRequest,
    kind: Exclude<Kind, 'video'>,
    journal: Journal,
  ): Promise<PublishOutcome> {
    if (kind === 'photos') {
      const ids: string[] = [];
      for (let i = 0; i < req.media.length; i++) ids.push(await uploadPhoto(page, req, i, journal));
      await journal.record(steps.postAttempt, deps.clock().toISOString());
      // Indexed form fields: a JSON array in one field intermittently fails with "(#100) must be an array".
      const form: Record<string, string | undefined> = { message: req.text || undefined };
      for (const [i, id] of ids.entries()) form[`attached_media[${i}]`] = JSON.stringify({ media_fbid: id });
      return published(
        page,
        required('facebook', (await post(page, `${page.id}/feed`, form)).id, 'a post id'),
        journal,
      );
    }
    await journal.record(steps.postAttempt, deps.clock().toISOString());
    if (kind === 'text')
      return published(
        page,
        required('facebook', (await post(page, `${page.id}/feed`, { message: req.text })).id, 'a post id'),
        journal,
      );
    const m = req.media[0];
    if (!m) throw invalid('facebook photo post without a photo');
    const body = await post(page, `${page.id}/photos`, {
      url: m.url,
      caption: req.text || undefined,
      published: 'true',
      alt_text_custom: m.altText ?? undefined,
    });
    await journal.record(steps.photo(0), required('facebook', body.id, 'a photo id'));
    return published(page, required('facebook', body.post_id, 'a post id'), journal);
  }

  async function video(page: Page, req: PublishRequest, journal: Journal): Promise<PublishOutcome> {
    let videoId = journal.steps[steps.video];
    if (!videoId) {
      const file = req.media[0];
      if (!file) throw invalid('facebook video post without a video');
      const upload = {
        pageId: page.id,
        pageToken: page.token,
        video: file,
        thumbnail: req.thumbnail,
        description: req.text,
        title: req.title,
      };
      videoId = file.size > chunkedAbove ? await videos.chunked(upload, journal) : await videos.byUrl(upload, journal);
    }
    const s = await videos.status(page.token, videoId);
    if (s.state === 'error')
      throw invalid(`facebook could not process video ${videoId}: ${safeText(s.error) || 'processing failed'}`);
    if (s.state !== 'ready') return { state: 'processing', handle: videoId };
    // A published Page video's story carries the video id as its post part.
    return published(page, `${page.id}_${videoId}`, journal, s.permalink);
  }

  /** Publish and checkStatus are the same walk: each step is skipped when the journal shows it done. */
  async function advance(tokens: TokenSet, req: PublishRequest, journal: Journal): Promise<PublishOutcome> {
    const done = journal.steps[steps.post];
    // The post exists whatever became of the Page token since; only its permalink then stays unknown.
    if (done && !tokens.extra?.[pageTokenKey(req.destination?.id ?? '')])
      return { state: 'published', postId: done, permalink: null };
    const page = pageOf(tokens, req);
    if (done) return { state: 'published', postId: done, permalink: await permalink(page, done) };
    const kind = kindOf(req);
    if (kind === 'video') return video(page, req, journal);
    // An earlier attempt sent the create and never heard back: look before posting again.
    if (journal.steps[steps.postAttempt]) {
      const found = await findPost(page, journal);
      if (found) return published(page, found, journal);
    }
    return create(page, req, kind, journal);
  }

  return {
    publish: advance,
    checkStatus: (tokens, _handle, req, journal) => advance(tokens, req, journal),
    async reconcile(tokens, req, journal) {
      const page = pageOf(tokens, req);
      const found = await findPost(page, journal);
      if (!found) return null;
      if (journal.steps[steps.post] !== found) await journal.record(steps.post, found);
      return { postId: found, permalink: await permalink(page, found) };
    },
  };
}

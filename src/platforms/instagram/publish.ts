// Publishing with the Instagram API with Instagram Login: media containers on POST /{ig-user-id}/media (JPEG by
// image_url, Reels by video_url, carousels from `is_carousel_item` children), status_code polling, then
// POST /{ig-user-id}/media_publish. Meta fetches the media itself from PublishMedia.url, so no bytes go through here.
import type { Journal, PublishMedia, PublishRequest, Publisher } from '../publishing.ts';
import type { AdapterDeps, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { required, str } from '../meta/graph.ts';
import { INSTAGRAM_GRAPH_VERSION, instagramUrls } from './config.ts';
import { containerPublisher, sameText, type ContainerDialect, type FlowOptions } from '../meta/container-flow.ts';
import { instagramOk } from './errors.ts';
import { renewingCodes } from '../documented-errors.ts';
import { INSTAGRAM_DOCUMENTED_ERRORS } from './documented-errors.ts';

const RENEWING = renewingCodes(INSTAGRAM_DOCUMENTED_ERRORS);

/** Journal step holding the professional account id the containers were created under. */
export const ACCOUNT_STEP = 'account';

const READ_TYPE = { image: 'IMAGE', video: 'VIDEO', carousel: 'CAROUSEL_ALBUM' } as const;
// Meta caps alt text at 1,000 characters and refuses the container beyond that.
const alt = (m: PublishMedia): string | undefined => (m.altText ? m.altText.slice(0, 1000) : undefined);

function refuse(message: string, kind: 'invalid_content' | 'unsupported' = 'invalid_content'): PlatformError {
  return new PlatformError('instagram', kind, message);
}

const MB = 1024 * 1024;
/**
 * Meta's Reels specification (IG User Media reference), as far as Herald's media metadata reaches: container MOV or
 * MP4, 3 s to 15 min, at most 300 MB (the reference's figure; some guides say 1 GB), at most 1920 columns, aspect
 * ratio 0.01:1 to 10:1. The codec (H.264/HEVC, AAC) is not in the metadata: Meta reports a wrong one as a container
 * in ERROR, which is CONTENT_REJECTED.
 */
export const REEL_RULES = {
  formats: ['mp4', 'mov'],
  mimes: ['video/mp4', 'video/quicktime'],
  minSeconds: 3,
  maxSeconds: 15 * 60,
  maxBytes: 300 * MB,
  maxWidth: 1920,
  aspect: { min: 0.01, max: 10 },
} as const;

/** Why Meta would refuse this video as a Reel, or null; checked before any container is made. */
export function reelProblem(m: PublishMedia): string | null {
  const r = REEL_RULES;
  if (
    !(r.formats as readonly string[]).includes(m.format.toLowerCase()) ||
    !(r.mimes as readonly string[]).includes(m.mime.toLowerCase())
  ) {
    return `Instagram takes Reels in an MP4 or MOV container, not ${m.format.toUpperCase() || m.mime}`;
  }
  if (m.size > r.maxBytes)
    return `Instagram takes Reels of up to 300 MB; this video has ${(m.size / MB).toFixed(0)} MB`;
  if (typeof m.durationSec === 'number' && (m.durationSec < r.minSeconds || m.durationSec > r.maxSeconds)) {
    return `Instagram takes Reels of 3 s to 15 min; this video runs ${m.durationSec.toFixed(1)} s`;
  }
  if (m.width && m.width > r.maxWidth)
    return `Instagram takes Reels at most 1920 pixels wide; this video is ${m.width}`;
  if (m.width && m.height) {
    const ratio = m.width / m.height;
    if (ratio < r.aspect.min || ratio > r.aspect.max)
      return `Instagram takes Reels with an aspect ratio between 0.01:1 and 10:1; this video is ${m.width}×${m.height}`;
  }
  return null;
}

export function instagramPublisher(deps: AdapterDeps, opts: FlowOptions = {}): Publisher {
  const { graphBase } = instagramUrls(deps);
  const api = `${graphBase}/${INSTAGRAM_GRAPH_VERSION}`;

  /**
   * Publishing targets the professional account id (`user_id`), not the app-scoped `id` of /me. It is looked up once
   * per target and kept in the journal, so checkStatus and retries skip the lookup.
   */
  async function userId(tokens: TokenSet, req: PublishRequest, journal: Journal): Promise<string> {
    if (req.destination && req.destination.id !== 'me') return req.destination.id;
    const known = journal.steps[ACCOUNT_STEP];
    if (known) return known;
    const me = instagramOk(
      await deps.http.request('instagram', {
        url: `${api}/me`,
        query: { fields: 'user_id' },
        headers: { authorization: `Bearer ${tokens.accessToken}` },
      }),
    );
    const id = str(me.user_id) ?? required('instagram', me.id, 'the account id');
    await journal.record(ACCOUNT_STEP, id);
    return id;
  }

  const dialect: ContainerDialect = {
    platform: 'instagram',
    api,
    ok: (res) => instagramOk(res),
    check(req) {
      if (req.postType === 'text') throw refuse('Instagram posts need an image or a video', 'unsupported');
      if (req.media.length === 0) throw refuse('Instagram posts need media');
      if (req.postType === 'carousel' && (req.media.length < 2 || req.media.length > 10))
        throw refuse('Instagram carousels take 2 to 10 items');
      if (req.postType === 'video' && req.media[0]?.kind !== 'video')
        throw refuse('An Instagram video post needs a video');
      if (req.postType === 'image' && req.media[0]?.kind !== 'image')
        throw refuse('An Instagram image post needs an image');
      for (const m of req.media) {
        const problem = m.kind === 'video' ? reelProblem(m) : null;
        if (problem) throw refuse(problem);
      }
    },
    userId,
    createEdge: 'media',
    publishEdge: 'media_publish',
    listEdge: 'media',
    statusFields: 'status_code,status',
    readStatus: (body) => ({ state: str(body.status_code), message: str(body.status) }),
    single(req) {
      const media = req.media[0];
      if (!media) throw refuse('Instagram posts need media');
      if (media.kind === 'video') {
        // Single feed videos are published as Reels (standalone VIDEO is deprecated); the thumbnail becomes the cover.
        return { media_type: 'REELS', video_url: media.url, caption: req.text, cover_url: req.thumbnail?.url };
      }
      return { image_url: media.url, caption: req.text, alt_text: alt(media) };
    },
    child(media) {
      // Children carry no caption: the carousel's caption is the parent's.
      if (media.kind === 'video') return { is_carousel_item: 'true', media_type: 'VIDEO', video_url: media.url };
      return { is_carousel_item: 'true', image_url: media.url, alt_text: alt(media) };
    },
    parent: (req, children) => ({ media_type: 'CAROUSEL', children: children.join(','), caption: req.text }),
    listFields: 'id,caption,media_type,permalink,timestamp',
    matches: (item, req) =>
      item.media_type === READ_TYPE[req.postType === 'text' ? 'image' : req.postType] &&
      sameText(item.caption, req.text),
    permalinkFields: 'permalink',
    // The permalink carries the shortcode (/p/…/, /reel/…/); the numeric media id is not a shortcode.
    permalinkOf: (body) => str(body.permalink),
    // 9007 / 2207027 "media is not ready for publishing": a race with processing, not a failure.
    notReady: (err) => err.code === '9007',
    quota: { edge: 'content_publishing_limit', spent: (err) => err.code === '9/2207042' },
    renew: (err) => err.code !== undefined && RENEWING.has(err.code),
  };

  return containerPublisher(dialect, deps, opts);
}

// Publishing through the Posts API (POST /rest/posts) as the member or an organization they administer: text, one
// image, 2–20 images (multiImage) or one video. Media is uploaded first (media-upload.ts), the post is created once
// LinkedIn reports the media AVAILABLE, and its URN comes back in `x-restli-id`.
//
// LinkedIn has no idempotency key: a create that timed out may have succeeded. The journal therefore marks the
// attempt before the call, and a retry that LinkedIn refuses as "a duplicate of {urn}" adopts that URN, since the
// duplicate is (with overwhelming likelihood) this target's own lost attempt.
import type { Journal, PublishOutcome, PublishRequest, Publisher } from '../publishing.ts';
import type { AdapterDeps, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { escapeCommentary } from './commentary.ts';
import { linkedinUrls, restHeaders } from './config.ts';
import { linkedinError, linkedinOk, waitingForUpload } from './errors.ts';
import { LINKEDIN_CAPABILITIES, LINKEDIN_MEDIA, MAX_IMAGE_PIXELS } from './limits.ts';
import { linkedinMedia, steps as mediaSteps } from './media-upload.ts';

const MAX_COMMENTARY = LINKEDIN_CAPABILITIES.text!.max;
const MAX_IMAGES = LINKEDIN_MEDIA.carousel.max;

/** Journal step names (media ones live in media-upload.ts). */
export const steps = {
  ...mediaSteps,
  author: 'author',
  postAttempt: 'post:attempt',
  post: 'post',
} as const;

export const permalinkOf = (webBase: string, urn: string): string => `${webBase}/feed/update/${urn}/`;

const invalid = (message: string): PlatformError => new PlatformError('linkedin', 'invalid_content', message);

interface Plan {
  commentary: string;
  visibility: 'PUBLIC' | 'CONNECTIONS';
  kind: 'text' | 'image' | 'multiImage' | 'video';
}

/** Everything checkable without the network, so a doomed post costs no upload and no quota. */
function plan(req: PublishRequest): Plan {
  const commentary = escapeCommentary(req.text);
  // LinkedIn measures the commentary it receives, escapes included.
  if (commentary.length > MAX_COMMENTARY) {
    throw invalid(
      `linkedin commentary is ${commentary.length} characters once reserved characters are escaped; the limit is ${MAX_COMMENTARY}`,
    );
  }
  const images = req.media.filter((m) => m.kind === 'image').length;
  const videos = req.media.filter((m) => m.kind === 'video').length;
  const mixed = images > 0 && videos > 0;
  let kind: Plan['kind'];
  if (req.postType === 'text' && req.media.length === 0) kind = 'text';
  else if (req.postType === 'image' && images === 1 && !mixed) kind = 'image';
  else if (req.postType === 'carousel' && images >= 2 && images <= MAX_IMAGES && !mixed) kind = 'multiImage';
  else if (req.postType === 'video' && videos === 1 && req.media.length === 1) kind = 'video';
  else {
    throw invalid(
      `linkedin cannot publish a ${req.postType} post with ${images} image(s) and ${videos} video(s): one image, 2–${MAX_IMAGES} images or one video`,
    );
  }
  const huge = req.media.find(
    (m) => m.kind === 'image' && m.width && m.height && m.width * m.height > MAX_IMAGE_PIXELS,
  );
  if (huge)
    throw invalid(
      `linkedin takes images of fewer than ${MAX_IMAGE_PIXELS} pixels; ${huge.id} is ${huge.width}×${huge.height}`,
    );
  if (videos === 1 && req.media[0]!.size > LINKEDIN_MEDIA.maxVideoBytes)
    throw invalid(`linkedin feed videos are at most 500 MB; this one is ${req.media[0]!.size} bytes`);
  const visibility = req.visibility ?? 'PUBLIC';
  if (visibility === 'CONNECTIONS' && req.destination?.kind === 'organization') {
    throw invalid('linkedin organizations post publicly; CONNECTIONS visibility exists only for members');
  }
  return { commentary, visibility, kind };
}

function duplicateOf(text: string): string | null {
  return /duplicate of (urn:li:(?:share|ugcPost):\d+)/.exec(text)?.[1] ?? null;
}

export function linkedinPublisher(deps: AdapterDeps): Publisher {
  const { apiBase, webBase } = linkedinUrls(deps);
  const media = linkedinMedia(deps);

  async function memberUrn(token: string): Promise<string> {
    const res = await deps.http.request('linkedin', {
      url: `${apiBase}/v2/userinfo`,
      headers: { authorization: `Bearer ${token}` },
    });
    const sub = linkedinOk(res, 'api', deps.clock).sub;
    if (typeof sub !== 'string' || !sub)
      throw new PlatformError('linkedin', 'transient', 'linkedin userinfo answered without a member id');
    return `urn:li:person:${sub}`;
  }

  /** The author URN, journaled so that every attempt (and its media, whose owner must match) uses the same one. */
  async function author(token: string, req: PublishRequest, journal: Journal): Promise<string> {
    const known = journal.steps[steps.author];
    if (known) return known;
    const dest = req.destination;
    let urn: string;
    if (dest?.kind === 'organization') {
      const id = dest.id.replace(/^urn:li:organization:/, '');
      if (!/^\d+$/.test(id)) throw invalid(`linkedin organization id ${dest.id} is not numeric`);
      urn = `urn:li:organization:${id}`;
    } else if (!dest || dest.kind === 'personal') {
      const id = dest?.id ?? 'me';
      urn =
        id === 'me' || id === ''
          ? await memberUrn(token)
          : id.startsWith('urn:li:person:')
            ? id
            : `urn:li:person:${id}`;
    } else {
      throw new PlatformError(
        'linkedin',
        'unsupported',
        `linkedin posts as a member or an organization, not to a ${dest.kind}`,
      );
    }
    await journal.record(steps.author, urn);
    return urn;
  }

  async function uploads(
    token: string,
    owner: string,
    req: PublishRequest,
    p: Plan,
    journal: Journal,
  ): Promise<{ content: unknown; urns: string[] }> {
    if (p.kind === 'text') return { content: undefined, urns: [] };
    if (p.kind === 'video') {
      const video = req.media[0];
      if (!video) throw invalid('linkedin video post without a video');
      const urn = await media.uploadVideo(token, owner, video, req.thumbnail, journal);
      return { content: { media: { id: urn, ...(req.title ? { title: req.title } : {}) } }, urns: [urn] };
    }
    const images: { id: string; altText?: string }[] = [];
    // One at a time: each upload journals its URN before the next call, and order is the post's order.
    for (const [i, m] of req.media.entries()) {
      const id = await media.uploadImage(token, owner, m, journal, i);
      images.push({ id, ...(m.altText ? { altText: m.altText } : {}) });
    }
    const content = p.kind === 'image' ? { media: images[0] } : { multiImage: { images } };
    return { content, urns: images.map((i) => i.id) };
  }

  /**
   * Null when the media may be posted; otherwise the URN still processing. Members' tokens (w_member_social) may not
   * read images back, so their images are not polled: the create call itself says MEDIA_ASSET_WAITING_UPLOAD.
   */
  async function pendingMedia(token: string, owner: string, urns: string[]): Promise<string | null> {
    for (const urn of urns) {
      if (urn.startsWith('urn:li:image:') && owner.startsWith('urn:li:person:')) continue;
      const s = await media.status(token, urn).catch((err: unknown) => {
        // Without a read permission on the owner, the create call is the only judge of readiness.
        if (err instanceof PlatformError && err.kind === 'permission') return null;
        throw err;
      });
      if (!s) continue;
      if (s.status === 'PROCESSING_FAILED')
        throw invalid(`linkedin could not process ${urn}: ${s.failure ?? 'processing failed'}`);
      if (s.status !== 'AVAILABLE') return urn;
    }
    return null;
  }

  async function create(
    token: string,
    owner: string,
    p: Plan,
    content: unknown,
    urns: string[],
    journal: Journal,
  ): Promise<PublishOutcome> {
    const attempted = journal.steps[steps.postAttempt] !== undefined;
    await journal.record(steps.postAttempt, deps.clock().toISOString());
    const res = await deps.http.request('linkedin', {
      method: 'POST',
      url: `${apiBase}/rest/posts`,
      headers: restHeaders(token),
      json: {
        author: owner,
        commentary: p.commentary,
        visibility: p.visibility,
        distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
        lifecycleState: 'PUBLISHED',
        isReshareDisabledByAuthor: false,
        ...(content === undefined ? {} : { content }),
      },
    });
    if (res.status >= 200 && res.status < 300) {
      const urn = res.headers.get('x-restli-id');
      // Without the header the post exists but cannot be named; the journaled attempt lets a retry adopt it.
      if (!urn) throw new PlatformError('linkedin', 'transient', 'linkedin created the post but sent no x-restli-id');
      await journal.record(steps.post, urn);
      return { state: 'published', postId: urn, permalink: permalinkOf(webBase, urn) };
    }
    const err = linkedinError(res, 'api', deps.clock);
    // Processing finished for LinkedIn's checker but not yet for its post store: poll again rather than fail.
    if (waitingForUpload(res, err)) return { state: 'processing', handle: urns.join(',') };
    const earlier = res.status === 422 && attempted ? duplicateOf(res.text) : null;
    if (earlier) {
      await journal.record(steps.post, earlier);
      return { state: 'published', postId: earlier, permalink: permalinkOf(webBase, earlier) };
    }
    throw err;
  }

  /** Publish and checkStatus are the same walk: each step is skipped when the journal shows it done. */
  async function advance(tokens: TokenSet, req: PublishRequest, journal: Journal): Promise<PublishOutcome> {
    const done = journal.steps[steps.post];
    if (done) return { state: 'published', postId: done, permalink: permalinkOf(webBase, done) };
    const p = plan(req);
    const token = tokens.accessToken;
    const owner = await author(token, req, journal);
    const { content, urns } = await uploads(token, owner, req, p, journal);
    const pending = await pendingMedia(token, owner, urns);
    if (pending) return { state: 'processing', handle: pending };
    return create(token, owner, p, content, urns, journal);
  }

  return {
    publish: advance,
    checkStatus: (tokens, _handle, req, journal) => advance(tokens, req, journal),

    /**
     * Only a journaled URN can be checked: the Posts API takes no idempotency key, and a member's own posts cannot
     * be listed (r_member_social is closed), so without the URN LinkedIn offers no way to find the post.
     */
    async reconcile(tokens, _req, journal) {
      const urn = journal.steps[steps.post];
      if (!urn) return null;
      // The same closed permission hides a member's post from its author; the journaled URN is LinkedIn's own answer.
      if (journal.steps[steps.author]?.startsWith('urn:li:person:'))
        return { postId: urn, permalink: permalinkOf(webBase, urn) };
      const res = await deps.http.request('linkedin', {
        url: `${apiBase}/rest/posts/${encodeURIComponent(urn)}`,
        query: { viewContext: 'AUTHOR' },
        headers: restHeaders(tokens.accessToken),
      });
      if (res.status === 404) return null;
      linkedinOk(res, 'api', deps.clock);
      return { postId: urn, permalink: permalinkOf(webBase, urn) };
    },
  };
}

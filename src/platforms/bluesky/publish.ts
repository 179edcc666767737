// Publishing to Bluesky: an app.bsky.feed.post record created with com.atproto.repo.createRecord on the account's PDS,
// with facets for links, mentions and tags, and an embed for images (uploadBlob) or a video (the video service, or
// uploadBlob on the PDS when there is no video service). Every blob, video job and the record key go into the journal
// before the next call; the record key is chosen once per target, so a retry finds the post instead of repeating it.
import type { Journal, PublishMedia, PublishOutcome, PublishRequest, Publisher } from '../publishing.ts';
import type { TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { parseBlob, uploadBlob } from './blobs.ts';
import type { BlobRef } from './blobs.ts';
import { blueskyFailure } from './errors.ts';
import { buildFacets } from './facets.ts';
import { resolveHandle } from './identity.ts';
import type { IdentityUrls } from './identity.ts';
import { pdsOf } from './session.ts';
import { fitImage } from './image-fit.ts';
import { MAX_IMAGES } from './limits.ts';
import { tidFor, TID_PATTERN } from './tid.ts';
import {
  checkUploadLimits,
  JOB_FAILED,
  jobFailure,
  jobStatus,
  serviceToken,
  uploadVideo,
  videoServiceUnavailable,
} from './video.ts';
import type { VideoJob } from './video.ts';
import { stringField, xrpc } from './xrpc.ts';
import type { JsonObject, XrpcClient } from './xrpc.ts';

export const POST_COLLECTION = 'app.bsky.feed.post';

/** Journal step names. */
export const STEP = {
  blob: (i: number) => `blob.${i}`,
  /** `<width>x<height>` of an image re-encoded to fit the blob limit (absent: the original's size). */
  ratio: (i: number) => `ratio.${i}`,
  videoJob: 'video.job',
  videoBlob: 'video.blob',
  /** The record key, chosen before createRecord: the post's URI is known from then on. */
  rkey: 'rkey',
  uri: 'uri',
} as const;

export interface BlueskyPublishUrls extends IdentityUrls {
  video: string;
  web: string;
}

interface Actor {
  pds: string;
  did: string;
  handle: string;
  token: string;
}

type Embed = JsonObject | { state: 'processing'; handle: string } | null;

const postUri = (did: string, rkey: string): string => `at://${did}/${POST_COLLECTION}/${rkey}`;

function aspectRatio(m: PublishMedia): { width: number; height: number } | undefined {
  return m.width && m.height && m.width > 0 && m.height > 0
    ? { width: Math.round(m.width), height: Math.round(m.height) }
    : undefined;
}

function journaledRatio(raw: string | undefined): { width: number; height: number } | undefined {
  const m = raw ? /^(\d+)x(\d+)$/.exec(raw) : null;
  return m ? { width: Number(m[1]), height: Number(m[2]) } : undefined;
}

/** The body's alt text for image i (bluesky.alt_texts), when it gave one. */
function altOf(options: Record<string, unknown>, i: number): string | undefined {
  const alts = options.alt_texts;
  const alt = Array.isArray(alts) ? alts[i] : undefined;
  return typeof alt === 'string' && alt.length > 0 ? alt : undefined;
}

function langsOf(options: Record<string, unknown>): string[] | undefined {
  const langs = options.langs;
  if (!Array.isArray(langs)) return undefined;
  const valid = langs.filter((l): l is string => typeof l === 'string' && l.length > 0).slice(0, 3);
  return valid.length ? valid : undefined;
}

export function blueskyPublisher(client: XrpcClient, urls: BlueskyPublishUrls): Publisher {
  async function actorOf(tokens: TokenSet): Promise<Actor> {
    const pds = pdsOf(tokens, urls.service);
    let did = tokens.extra?.did;
    let handle = tokens.extra?.handle;
    if (!did) {
      const session = await xrpc(client, {
        base: pds,
        nsid: 'com.atproto.server.getSession',
        method: 'GET',
        context: 'access',
        bearer: tokens.accessToken,
      });
      did = stringField(session, 'did');
      handle = stringField(session, 'handle');
      if (!did) throw blueskyFailure('transient', 'Bluesky answered getSession without a DID');
    }
    return { pds, did, handle: handle ?? did, token: tokens.accessToken };
  }

  const permalink = (a: Actor, uri: string): string =>
    `${urls.web}/profile/${a.handle}/post/${uri.split('/').pop() ?? ''}`;
  const published = (a: Actor, uri: string): PublishOutcome => ({
    state: 'published',
    postId: uri,
    permalink: permalink(a, uri),
  });

  /** The record under a key, or null; getRecord is public, so this also works while the session is being renewed. */
  async function findPost(a: Actor, rkey: string): Promise<string | null> {
    try {
      const out = await xrpc(client, {
        base: a.pds,
        nsid: 'com.atproto.repo.getRecord',
        method: 'GET',
        context: 'public',
        params: { repo: a.did, collection: POST_COLLECTION, rkey },
      });
      return stringField(out, 'uri') ?? postUri(a.did, rkey);
    } catch (err) {
      if (err instanceof PlatformError && err.kind === 'not_found') return null;
      throw err;
    }
  }

  /** Each image within the blob limit (re-encoded when over), uploaded once; the ratio is the uploaded one's. */
  async function images(a: Actor, req: PublishRequest, journal: Journal, fresh: boolean): Promise<JsonObject> {
    if (req.media.length > MAX_IMAGES)
      throw blueskyFailure('invalid_content', `Bluesky posts take at most ${MAX_IMAGES} images`);
    const items: JsonObject[] = [];
    for (const [i, media] of req.media.entries()) {
      if (media.kind !== 'image')
        throw blueskyFailure(
          'invalid_content',
          `A Bluesky ${req.postType} post takes images only; media ${media.id} is a video`,
        );
      let blob = fresh ? null : parseBlob(journal.steps[STEP.blob(i)]);
      let ratio = journaledRatio(journal.steps[STEP.ratio(i)]) ?? aspectRatio(media);
      if (!blob) {
        const fitted = await fitImage(media);
        ratio = aspectRatio(fitted);
        if (!fitted.original) {
          client.logger.info(
            {
              platform: 'bluesky',
              media: media.id,
              from: media.size,
              to: fitted.size,
              width: fitted.width,
              height: fitted.height,
            },
            're-encoded an image to fit the blob limit',
          );
          // The re-encoded size is the embed's ratio; kept with the blob, so a retry from the journal says the same.
          if (ratio) await journal.record(STEP.ratio(i), `${ratio.width}x${ratio.height}`);
        }
        blob = await uploadBlob(client, a.pds, a.token, fitted);
        await journal.record(STEP.blob(i), JSON.stringify(blob));
      }
      items.push({
        image: blob,
        alt: altOf(req.options, i) ?? media.altText ?? '',
        ...(ratio ? { aspectRatio: ratio } : {}),
      });
    }
    return { $type: 'app.bsky.embed.images', images: items };
  }

  /** The processed video's blob, or the job to wait for. */
  async function videoBlob(
    a: Actor,
    media: PublishMedia,
    journal: Journal,
    fresh: boolean,
  ): Promise<{ blob: BlobRef } | { job: VideoJob }> {
    const known = fresh ? null : parseBlob(journal.steps[STEP.videoBlob]);
    if (known) return { blob: known };
    const jobId = fresh ? undefined : journal.steps[STEP.videoJob];
    let job: VideoJob | null = null;
    if (jobId) {
      job = await jobStatus(client, urls.video, jobId).catch((err: unknown) => {
        // A job the service no longer knows is uploaded again; anything else (throttling, outages) is reported.
        if (err instanceof PlatformError && (err.kind === 'not_found' || err.kind === 'invalid_content')) return null;
        throw err;
      });
    }
    if (!job) {
      try {
        await checkUploadLimits(client, urls.video, a.pds, a.token, media);
        job = await uploadVideo(client, urls.video, await serviceToken(client, a.pds, a.token), a.did, media);
      } catch (err) {
        if (!videoServiceUnavailable(err)) throw err;
        client.logger.info(
          { platform: 'bluesky', reason: err instanceof Error ? err.message : String(err) },
          'no video service; uploading the video to the PDS',
        );
        const blob = await uploadBlob(client, a.pds, a.token, media);
        await journal.record(STEP.videoBlob, JSON.stringify(blob));
        return { blob };
      }
      if (job.jobId && job.jobId !== jobId) await journal.record(STEP.videoJob, job.jobId);
    }
    if (job.blob) {
      await journal.record(STEP.videoBlob, JSON.stringify(job.blob));
      return { blob: job.blob };
    }
    if (job.state === JOB_FAILED) throw jobFailure(job);
    if (!job.jobId) throw blueskyFailure('transient', 'The Bluesky video service answered without a job id');
    return { job };
  }

  async function embedOf(a: Actor, req: PublishRequest, journal: Journal, fresh: boolean): Promise<Embed> {
    if (req.media.length === 0) {
      if (req.postType !== 'text')
        throw blueskyFailure('invalid_content', `A Bluesky ${req.postType} post needs media`);
      return null;
    }
    const first = req.media[0];
    if (req.postType !== 'video' || !first) return images(a, req, journal, fresh);
    if (first.kind !== 'video') throw blueskyFailure('invalid_content', 'A Bluesky video post needs a video');
    const got = await videoBlob(a, first, journal, fresh);
    if ('job' in got) return { state: 'processing', handle: got.job.jobId ?? '' };
    const ratio = aspectRatio(first);
    return {
      $type: 'app.bsky.embed.video',
      video: got.blob,
      ...(first.altText ? { alt: first.altText } : {}),
      ...(ratio ? { aspectRatio: ratio } : {}),
    };
  }

  const resolver = async (handle: string): Promise<string | null> => {
    try {
      return await resolveHandle(client, urls, handle);
    } catch (err) {
      // An unknown handle stays plain text; an outage is worth a retry rather than a silently lost mention.
      if (err instanceof PlatformError && (err.kind === 'invalid_content' || err.kind === 'not_found')) return null;
      throw err;
    }
  };

  async function create(a: Actor, req: PublishRequest, journal: Journal, record: JsonObject): Promise<PublishOutcome> {
    let rkey = journal.steps[STEP.rkey];
    if (rkey && TID_PATTERN.test(rkey)) {
      // An earlier attempt may have created the post and died before journaling its URI.
      const existing = await findPost(a, rkey);
      if (existing) return done(a, journal, existing);
    } else {
      rkey = tidFor(req.targetId, client.clock());
      await journal.record(STEP.rkey, rkey);
    }
    let uri: string;
    try {
      const out = await xrpc(client, {
        base: a.pds,
        nsid: 'com.atproto.repo.createRecord',
        method: 'POST',
        context: 'access',
        bearer: a.token,
        input: { repo: a.did, collection: POST_COLLECTION, rkey, record },
      });
      uri = stringField(out, 'uri') ?? postUri(a.did, rkey);
    } catch (err) {
      // A create refused because the key is taken (the PDS answers a 500, other servers a 400), or whose answer was
      // lost, may still have written the post: the key tells.
      if (err instanceof PlatformError && (err.kind === 'invalid_content' || err.kind === 'transient')) {
        const existing = await findPost(a, rkey).catch(() => null);
        if (existing) return done(a, journal, existing);
      }
      throw err;
    }
    return done(a, journal, uri);
  }

  async function done(a: Actor, journal: Journal, uri: string): Promise<PublishOutcome> {
    if (journal.steps[STEP.uri] !== uri) await journal.record(STEP.uri, uri);
    return published(a, uri);
  }

  async function advance(tokens: TokenSet, req: PublishRequest, journal: Journal): Promise<PublishOutcome> {
    const a = await actorOf(tokens);
    const uri = journal.steps[STEP.uri];
    if (uri) return published(a, uri);
    try {
      return await attempt(a, req, journal, false);
    } catch (err) {
      // The PDS drops blobs no record references within a while; journaled ones from a long-past attempt may be
      // gone. Uploading them again (and journaling the new references) is the only way forward.
      if (!(err instanceof PlatformError) || err.code !== 'BlobNotFound' || req.media.length === 0) throw err;
      client.logger.info({ platform: 'bluesky' }, 'journaled blobs are gone from the PDS; uploading them again');
      return attempt(a, req, journal, true);
    }
  }

  async function attempt(a: Actor, req: PublishRequest, journal: Journal, fresh: boolean): Promise<PublishOutcome> {
    const embed = await embedOf(a, req, journal, fresh);
    if (embed && embed.state === 'processing') return { state: 'processing', handle: String(embed.handle) };
    const facets = await buildFacets(req.text, resolver);
    const langs = langsOf(req.options);
    const record: JsonObject = {
      $type: POST_COLLECTION,
      text: req.text,
      createdAt: client.clock().toISOString(),
      ...(langs ? { langs } : {}),
      ...(facets.length ? { facets } : {}),
      ...(embed ? { embed } : {}),
    };
    return create(a, req, journal, record);
  }

  return {
    publish: advance,
    // The journal says where the flow stands (video job, blob, key); the handle is the job id being waited on.
    checkStatus: (tokens, _handle, req, journal) => advance(tokens, req, journal),

    async reconcile(tokens, _req, journal) {
      const a = await actorOf(tokens);
      const rkey = journal.steps[STEP.uri]?.split('/').pop() ?? journal.steps[STEP.rkey];
      if (!rkey || !TID_PATTERN.test(rkey)) return null;
      const uri = await findPost(a, rkey);
      if (!uri) return null;
      if (journal.steps[STEP.uri] !== uri) await journal.record(STEP.uri, uri);
      return { postId: uri, permalink: permalink(a, uri) };
    },
  };
}

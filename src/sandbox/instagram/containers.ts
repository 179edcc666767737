// POST /{ig-user-id}/media: media containers for images (JPEG only), Reels / carousel videos, stories and carousels
// (2–10 finished children). A container's status_code moves IN_PROGRESS → FINISHED (or ERROR) after the processing
// delay, and to EXPIRED when it is not published within 24 hours.
import { inspectUrl, isVideo } from '../core/media.ts';
import { DAY_MS, flag, graphInput, listParam, metaMediaId, param } from '../core/meta-publish.ts';
import type { Obj } from '../core/http.ts';
import { findObject, putObject } from '../core/objects.ts';
import { current, schedule } from '../core/processing.ts';
import { reachMedia } from '../core/strict.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, ErrorAnswer, Simulator } from '../core/route.ts';
import type { JsonObject, ObjectRecord } from '../core/types.ts';
import { expired, igActor, igError, notReady, PUBLISH_SCOPE } from './actor.ts';

const MAX_CAPTION = 2200;
const MAX_HASHTAGS = 30;
const MAX_MENTIONS = 20;
const MEDIA_TYPES = ['IMAGE', 'VIDEO', 'REELS', 'STORIES', 'CAROUSEL'];

export const STATUS_TEXT: Record<string, string> = {
  IN_PROGRESS: 'In Progress: Media is still being processed.',
  FINISHED: 'Finished: Media has been uploaded and it is ready to be published.',
  PUBLISHED: 'Published: Media has been successfully published.',
  EXPIRED: 'Expired: Media was not published within 24 hours.',
};

const failed = (subcode: number): JsonObject => ({
  status_code: 'ERROR',
  status: `Error: Media upload has failed with error code ${subcode}`,
});
const invalid = (message: string, subcode?: number): ErrorAnswer => igError(100, subcode ?? 0, message);

/** A container with due processing applied and its 24-hour expiry checked against the sandbox clock. */
export function containerNow(call: Call, container: ObjectRecord): ObjectRecord {
  current(call.ctx, container);
  const open = container.status_code === 'IN_PROGRESS' || container.status_code === 'FINISHED';
  if (open && call.ctx.nowMs() - Date.parse(container.createdAt) >= DAY_MS) {
    delete container.scheduled;
    Object.assign(container, { status_code: 'EXPIRED', status: STATUS_TEXT.EXPIRED ?? '' });
  }
  return container;
}

function captionProblem(caption: string): ErrorAnswer | null {
  if (caption.length > MAX_CAPTION)
    return igError(
      36004,
      2207010,
      `The caption is too long: it must be at most ${MAX_CAPTION} characters`,
      'Caption Too Long',
    );
  if ((caption.match(/#[\p{L}\p{N}_]+/gu) ?? []).length > MAX_HASHTAGS) {
    return igError(36004, 2207010, `The caption contains more than ${MAX_HASHTAGS} hashtags`, 'Too Many Hashtags');
  }
  if ((caption.match(/@[A-Za-z0-9._]+/g) ?? []).length > MAX_MENTIONS) {
    return invalid(`The caption contains more than ${MAX_MENTIONS} @ tags`, 2207040);
  }
  return null;
}

/** Image rules are checked at creation (Meta fetches the image right away); video problems surface as ERROR later. */
function mediaSteps(type: string, input: Obj): ErrorAnswer | { url: string; steps: JsonObject } {
  const imageUrl = param(input, 'image_url');
  const videoUrl = param(input, 'video_url');
  const wantsVideo =
    type === 'VIDEO' || type === 'REELS' || (type === 'STORIES' && !imageUrl && videoUrl !== undefined);
  if (!wantsVideo) {
    if (!imageUrl) return invalid('The parameter image_url is required.');
    const media = inspectUrl(imageUrl);
    if (!media?.reachable)
      return igError(
        9004,
        2207052,
        `The media could not be fetched from this uri: ${imageUrl}`,
        'Media download has failed.',
      );
    if (media.mime && media.mime !== 'image/jpeg') {
      return igError(
        36001,
        2207005,
        'The image format is not supported. Only JPEG images can be published.',
        'Unsupported format',
      );
    }
    return { url: imageUrl, steps: media.corrupt ? failed(2207032) : { status_code: 'FINISHED' } };
  }
  if (!videoUrl) return invalid('The parameter video_url is required.');
  const media = inspectUrl(videoUrl);
  if (!media)
    return igError(
      9004,
      2207052,
      `The media could not be fetched from this uri: ${videoUrl}`,
      'Media download has failed.',
    );
  if (!media.reachable) return { url: videoUrl, steps: failed(2207052) };
  if (media.corrupt || (media.mime !== null && !isVideo(media.mime))) return { url: videoUrl, steps: failed(2207026) };
  return { url: videoUrl, steps: { status_code: 'FINISHED' } };
}

function childrenProblem(call: Call, accountId: string, children: string[] | undefined): ErrorAnswer | null {
  if (!children || children.length < 2 || children.length > 10)
    return invalid('A carousel must have between 2 and 10 children.', 2207028);
  for (const id of children) {
    const child = findObject(call, 'containers', id);
    if (!child || child.accountId !== accountId || child.is_carousel_item !== true)
      return invalid(`The carousel child ${id} is not a valid carousel item container.`, 2207028);
    const state = containerNow(call, child).status_code;
    if (state === 'IN_PROGRESS') return notReady();
    if (state === 'EXPIRED') return expired();
    if (state !== 'FINISHED')
      return igError(-1, 2207032, `Create media has failed for carousel child ${id}; recreate the container.`);
  }
  return null;
}

export function registerInstagramContainers(sim: Simulator): void {
  addRoute(sim, {
    method: 'POST',
    url: '/:version/:id/media',
    ops: ['upload'],
    surface: 'api',
    handler: async (req, reply, call) => {
      const actor = igActor(req, reply, call, PUBLISH_SCOPE, 'post');
      if (!actor) return reply;
      const input = graphInput(req);
      const type = (param(input, 'media_type') ?? 'IMAGE').toUpperCase();
      const child = flag(input, 'is_carousel_item') === true;
      if (!MEDIA_TYPES.includes(type))
        return sendAnswer(reply, invalid(`The media type ${type} is not supported.`, 2207023));
      if (type === 'VIDEO' && !child)
        return sendAnswer(
          reply,
          invalid('The VIDEO media type is only allowed for carousel items; publish single videos as REELS.', 2207023),
        );
      if (child && type !== 'IMAGE' && type !== 'VIDEO')
        return sendAnswer(reply, invalid(`A carousel item must be an IMAGE or VIDEO, not ${type}.`, 2207023));
      const caption = child ? '' : (param(input, 'caption') ?? '');
      const problem = captionProblem(caption);
      if (problem) return sendAnswer(reply, problem);
      const alt = param(input, 'alt_text');
      if (alt !== undefined && (alt.length > 1000 || (type !== 'IMAGE' && type !== 'CAROUSEL'))) {
        return sendAnswer(reply, invalid('alt_text must be at most 1000 characters and is only allowed on images.'));
      }
      const collaborators = listParam(input, 'collaborators') ?? [];
      if (collaborators.length > 3 || (collaborators.length > 0 && type === 'STORIES')) {
        return sendAnswer(reply, invalid('collaborators allows at most 3 usernames and is not allowed on stories.'));
      }
      let url: string | null = null;
      let steps: JsonObject = { status_code: 'FINISHED' };
      let children: string[] = [];
      if (type === 'CAROUSEL') {
        const list = listParam(input, 'children');
        const bad = childrenProblem(call, actor.account.id, list);
        if (bad) return sendAnswer(reply, bad);
        children = list ?? [];
      } else {
        const media = mediaSteps(type, input);
        if ('status' in media) return sendAnswer(reply, media);
        url = media.url;
        steps = media.steps;
        // Meta's servers fetch the URL: an image right away, a video while the container processes.
        const reach = await reachMedia(call.ctx, url);
        if (!reach.ok && steps.status_code === 'FINISHED') {
          if (type === 'IMAGE' || (type === 'STORIES' && param(input, 'image_url'))) {
            return sendAnswer(
              reply,
              igError(
                9004,
                2207052,
                `The media could not be fetched from this uri: ${url} (${reach.detail})`,
                'Media download has failed.',
              ),
            );
          }
          steps = failed(2207052);
        }
      }
      const container = putObject(call, 'containers', {
        id: metaMediaId(),
        accountId: actor.account.id,
        igUserId: actor.igUserId,
        media_type: type,
        is_carousel_item: child,
        media_url: url,
        caption,
        children,
        alt_text: alt ?? null,
        collaborators,
        cover_url: param(input, 'cover_url') ?? null,
        share_to_feed: flag(input, 'share_to_feed') ?? null,
        status_code: 'IN_PROGRESS',
        status: STATUS_TEXT.IN_PROGRESS ?? '',
        published_id: null,
      });
      const text = steps.status_code === 'FINISHED' ? (STATUS_TEXT.FINISHED ?? '') : steps.status;
      schedule(call.ctx, 'instagram', container, [{ at: 1, set: { ...steps, status: text ?? '' } }]);
      // A documented container outcome armed as a fault (errors.ts): the container ends that way.
      if (call.outcome) schedule(call.ctx, 'instagram', container, [{ at: 1, set: call.outcome }]);
      return reply.send({ id: container.id });
    },
  });
}

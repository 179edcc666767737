// POST /v1.0/{threads-user-id}/threads: containers for TEXT, IMAGE, VIDEO and CAROUSEL (2–20 finished children).
// Text is limited to 500 characters (an emoji counts as its UTF-8 bytes) and 5 distinct links. TEXT containers are
// FINISHED at once; media containers go IN_PROGRESS → FINISHED (or ERROR with error_message) after the processing
// delay, and EXPIRED after 24 hours. `auto_publish_text=true` publishes a TEXT post straight away.
import { inspectUrl, isVideo } from '../core/media.ts';
import { reachMedia } from '../core/strict.ts';
import { flag, graphInput, listParam, metaMediaId, param } from '../core/meta-publish.ts';
import type { Obj } from '../core/http.ts';
import { findObject, putObject } from '../core/objects.ts';
import { schedule } from '../core/processing.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, ErrorAnswer, Simulator } from '../core/route.ts';
import { threadsLength, urlsIn } from '../core/text.ts';
import type { JsonObject } from '../core/types.ts';
import { containerNow, notReady, threadsActor, threadsError } from './actor.ts';
import { publishContainer } from './publish.ts';

const MAX_TEXT = 500;
const MAX_LINKS = 5;
const TYPES = ['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'];
const REPLY_CONTROLS = [
  'everyone',
  'accounts_you_follow',
  'mentioned_only',
  'parent_post_author_only',
  'followers_only',
];

function mediaOutcome(type: string, input: Obj): ErrorAnswer | { url: string; result: JsonObject } {
  const key = type === 'IMAGE' ? 'image_url' : 'video_url';
  const raw = param(input, key);
  if (!raw) return threadsError(`(#100) The parameter ${key} is required.`);
  const media = inspectUrl(raw);
  if (!media) return threadsError(`(#100) Param ${key} must be a valid URL.`);
  if (type === 'IMAGE') {
    if (!media.reachable)
      return threadsError('The media could not be fetched from this URI', 100, {
        userTitle: 'Media download has failed.',
        userMsg: raw,
      });
    const supported = media.mime === null || media.mime === 'image/jpeg' || media.mime === 'image/png';
    return {
      url: raw,
      result: !supported || media.corrupt ? { status: 'ERROR', error_message: 'UNKNOWN' } : { status: 'FINISHED' },
    };
  }
  if (!media.reachable) return { url: raw, result: { status: 'ERROR', error_message: 'FAILED_DOWNLOADING_VIDEO' } };
  const bad = media.corrupt || (media.mime !== null && !isVideo(media.mime));
  return {
    url: raw,
    result: bad ? { status: 'ERROR', error_message: 'FAILED_PROCESSING_VIDEO' } : { status: 'FINISHED' },
  };
}

function textProblem(input: Obj, type: string): ErrorAnswer | null {
  const text = param(input, 'text') ?? '';
  if (type === 'TEXT' && !text && !param(input, 'link_attachment'))
    return threadsError('(#100) The parameter text is required.');
  if (threadsLength(text) > MAX_TEXT)
    return threadsError(`(#100) Param text must be at most ${MAX_TEXT} characters long.`);
  const link = param(input, 'link_attachment');
  if (link !== undefined && type !== 'TEXT')
    return threadsError('(#100) link_attachment is only allowed on TEXT posts.');
  const links = new Set([...urlsIn(text), ...(link ? [link] : [])]);
  if (links.size > MAX_LINKS) {
    return threadsError('THREADS_API__LINK_LIMIT_EXCEEDED', 100, {
      userTitle: 'Link limit exceeded',
      userMsg: `A post can contain at most ${MAX_LINKS} links.`,
    });
  }
  const control = param(input, 'reply_control');
  if (control !== undefined && !REPLY_CONTROLS.includes(control))
    return threadsError(`(#100) Param reply_control must be one of {${REPLY_CONTROLS.join(', ')}}.`);
  return null;
}

function childrenProblem(call: Call, accountId: string, children: string[] | undefined): ErrorAnswer | null {
  if (!children || children.length < 2 || children.length > 20)
    return threadsError('(#100) A carousel must have between 2 and 20 children.');
  for (const id of children) {
    const child = findObject(call, 'containers', id);
    if (!child || child.accountId !== accountId || child.is_carousel_item !== true)
      return threadsError(`(#100) The carousel child ${id} is not a carousel item container.`);
    const state = containerNow(call, child).status;
    if (state === 'IN_PROGRESS') return notReady();
    if (state !== 'FINISHED') return threadsError(`(#100) The carousel child ${id} is ${String(state)}.`);
  }
  return null;
}

export function registerThreadsContainers(sim: Simulator): void {
  addRoute(sim, {
    method: 'POST',
    url: '/v1.0/:id/threads',
    ops: ['upload', 'reply'],
    // A container answering a post or a reply is reply creation.
    opsFor: (req) => (param(graphInput(req), 'reply_to_id') !== undefined ? ['reply'] : ['upload']),
    surface: 'api',
    handler: async (req, reply, call) => {
      const actor = threadsActor(req, reply, call, ['threads_content_publish'], 'post');
      if (!actor) return reply;
      const input = graphInput(req);
      const type = param(input, 'media_type');
      if (!type) return sendAnswer(reply, threadsError('(#100) The parameter media_type is required.'));
      if (!TYPES.includes(type))
        return sendAnswer(reply, threadsError(`(#100) Param media_type must be one of {${TYPES.join(', ')}}.`));
      const child = flag(input, 'is_carousel_item') === true;
      if (child && type !== 'IMAGE' && type !== 'VIDEO')
        return sendAnswer(reply, threadsError('(#100) Only IMAGE and VIDEO containers can be carousel items.'));
      const problem = textProblem(input, type);
      if (problem) return sendAnswer(reply, problem);
      for (const key of ['reply_to_id', 'quote_post_id']) {
        const target = param(input, key);
        // A reply may answer a post or a reply under one (engagement.ts keeps replies in the comments map).
        const underOwnPost = (id: string): boolean =>
          call.slice.posts.get(String(call.slice.comments.get(id)?.postId))?.accountId === actor.account.id;
        const known =
          target !== undefined && (call.slice.posts.has(target) || (key === 'reply_to_id' && underOwnPost(target)));
        if (target !== undefined && !known)
          return sendAnswer(reply, threadsError(`(#100) Param ${key} must be the id of a published post.`));
      }
      const alt = param(input, 'alt_text');
      if (alt !== undefined && (type === 'TEXT' || type === 'CAROUSEL' || alt.length > 1000)) {
        return sendAnswer(
          reply,
          threadsError('(#100) alt_text is only allowed on IMAGE and VIDEO and must be at most 1000 characters.'),
        );
      }
      let url: string | null = null;
      let result: JsonObject = { status: 'FINISHED' };
      let children: string[] = [];
      if (type === 'CAROUSEL') {
        const list = listParam(input, 'children');
        const bad = childrenProblem(call, actor.account.id, list);
        if (bad) return sendAnswer(reply, bad);
        children = list ?? [];
      } else if (type !== 'TEXT') {
        const media = mediaOutcome(type, input);
        if ('status' in media) return sendAnswer(reply, media);
        url = media.url;
        result = media.result;
        // Meta's servers fetch the URL (public_media_only: loopback and private addresses are out of their reach).
        const reach = await reachMedia(call.ctx, url);
        if (!reach.ok && result.status === 'FINISHED') {
          if (type === 'IMAGE')
            return sendAnswer(
              reply,
              threadsError('The media could not be fetched from this URI', 100, {
                userTitle: 'Media download has failed.',
                userMsg: url,
              }),
            );
          result = { status: 'ERROR', error_message: 'FAILED_DOWNLOADING_VIDEO' };
        }
      }
      const container = putObject(call, 'containers', {
        id: metaMediaId(),
        accountId: actor.account.id,
        media_type: type,
        is_carousel_item: child,
        text: param(input, 'text') ?? '',
        media_url: url,
        children,
        reply_to_id: param(input, 'reply_to_id') ?? null,
        quote_post_id: param(input, 'quote_post_id') ?? null,
        reply_control: param(input, 'reply_control') ?? null,
        link_attachment: param(input, 'link_attachment') ?? null,
        topic_tag: param(input, 'topic_tag') ?? null,
        alt_text: alt ?? null,
        status: type === 'TEXT' ? 'FINISHED' : 'IN_PROGRESS',
        error_message: null,
        published_id: null,
      });
      if (type !== 'TEXT') schedule(call.ctx, 'threads', container, [{ at: 1, set: result }]);
      // A documented container outcome armed as a fault (errors.ts): the container ends that way.
      if (call.outcome) schedule(call.ctx, 'threads', container, [{ at: 1, set: call.outcome }]);
      if (type === 'TEXT' && flag(input, 'auto_publish_text') === true) {
        const published = publishContainer(call, req, actor, container);
        return 'status' in published ? sendAnswer(reply, published) : reply.send({ id: published.id });
      }
      return reply.send({ id: container.id });
    },
  });
}

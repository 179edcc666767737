// Publishing to Threads: containers on POST /{user}/threads (TEXT, IMAGE, VIDEO, and CAROUSEL over
// `is_carousel_item` children), status polling, then POST /{user}/threads_publish. The flow is Instagram's
// (../instagram/container-flow.ts); only names differ. Text posts go through a container too rather than
// `auto_publish_text`, so the container id is journaled before anything becomes public.
import type { PublishMedia, Publisher } from '../publishing.ts';
import type { AdapterDeps } from '../types.ts';
import { PlatformError } from '../types.ts';
import { str } from '../meta/graph.ts';
import { containerPublisher, sameText, type ContainerDialect, type FlowOptions } from '../meta/container-flow.ts';
import { THREADS_API_VERSION, threadsUrls } from './config.ts';
import { threadsOk } from './errors.ts';
import { renewingCodes } from '../documented-errors.ts';
import { THREADS_DOCUMENTED_ERRORS } from './documented-errors.ts';

const RENEWING = renewingCodes(THREADS_DOCUMENTED_ERRORS);
const READ_TYPE = { text: 'TEXT_POST', image: 'IMAGE', video: 'VIDEO', carousel: 'CAROUSEL_ALBUM' } as const;
const alt = (m: PublishMedia): string | undefined => (m.altText ? m.altText.slice(0, 1000) : undefined);

function refuse(message: string): PlatformError {
  return new PlatformError('threads', 'invalid_content', message);
}

function mediaParams(media: PublishMedia): Record<string, string | undefined> {
  return media.kind === 'video'
    ? { media_type: 'VIDEO', video_url: media.url, alt_text: alt(media) }
    : { media_type: 'IMAGE', image_url: media.url, alt_text: alt(media) };
}

export function threadsPublisher(deps: AdapterDeps, opts: FlowOptions = {}): Publisher {
  const { graphBase, webBase } = threadsUrls(deps);

  const dialect: ContainerDialect = {
    platform: 'threads',
    api: `${graphBase}/${THREADS_API_VERSION}`,
    ok: (res) => threadsOk(res),
    check(req) {
      if (req.postType === 'text' && !req.text.trim()) throw refuse('A Threads text post needs text');
      if (req.postType !== 'text' && req.media.length === 0) throw refuse('This Threads post needs media');
      if (req.postType === 'carousel' && (req.media.length < 2 || req.media.length > 20))
        throw refuse('Threads carousels take 2 to 20 items');
    },
    // Threads documents /me/{edge} for its publishing endpoints; one profile per token, so no lookup is needed.
    userId: async (_tokens, req) => (req.destination && req.destination.id !== 'me' ? req.destination.id : 'me'),
    createEdge: 'threads',
    publishEdge: 'threads_publish',
    listEdge: 'threads',
    statusFields: 'status,error_message',
    readStatus: (body) => ({ state: str(body.status), message: str(body.error_message) }),
    single(req) {
      const media = req.media[0];
      if (req.postType === 'text' || !media) return { media_type: 'TEXT', text: req.text };
      return { ...mediaParams(media), text: req.text || undefined };
    },
    child: (media) => ({ ...mediaParams(media), is_carousel_item: 'true' }),
    parent: (req, children) => ({ media_type: 'CAROUSEL', children: children.join(','), text: req.text || undefined }),
    listFields: 'id,text,media_type,permalink,username,timestamp',
    matches: (item, req) => item.media_type === READ_TYPE[req.postType] && sameText(item.text, req.text),
    permalinkFields: 'permalink,username',
    // Threads omits the permalink of copyright-flagged media; the profile is the best link left.
    permalinkOf: (body) => str(body.permalink) ?? (str(body.username) ? `${webBase}/@${String(body.username)}` : null),
    // Threads has no distinct "not ready" code (it answers "Media Not Found"), so a refusal is reported as is.
    notReady: () => false,
    quota: { edge: 'threads_publishing_limit', spent: (err) => err.kind === 'rate_limited' && err.code === '9' },
    renew: (err) => err.code !== undefined && RENEWING.has(err.code),
  };

  return containerPublisher(dialect, deps, opts);
}

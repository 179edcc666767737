// Posts as the networks' adapters answer them (RemotePost), made from what Herald already has: a post it published
// (the ledger) or a post it stored from an earlier read.
import type { RemotePost } from '../platforms/engagement.ts';
import type { PostRow, PublishedPost } from './store.ts';
import { iso } from './types.ts';

const postTypeOf = (value: string): RemotePost['type'] =>
  (['text', 'image', 'video', 'carousel'] as const).find((x) => x === value) ?? 'text';

/** A post Herald published, from the ledger, with the numbers the network gives. */
export function publishedAsRemote(
  p: PublishedPost,
  source: string | null,
  metrics: RemotePost['metrics'],
  images: RemotePost['images'],
): RemotePost {
  return {
    postId: p.platformPostId,
    commentary: p.text,
    publishedAt: iso(p.publishedAt),
    type: postTypeOf(p.postType),
    images,
    video: null,
    permalink: p.permalink,
    sourcePageId: source,
    metrics,
  };
}

/** A stored post as the network would answer it, with these numbers. */
export function storedAsRemote(row: PostRow, metrics: RemotePost['metrics']): RemotePost {
  return {
    postId: row.platformPostId,
    commentary: row.commentary,
    publishedAt: iso(row.publishedAt),
    type: postTypeOf(row.postType),
    images: row.images as RemotePost['images'],
    video: (row.videos ?? null) as RemotePost['video'],
    permalink: row.permalink,
    sourcePageId: row.sourcePageId,
    metrics,
    commentsDisabled: row.commentsDisabled,
  };
}

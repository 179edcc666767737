// The Graph nodes a Facebook post and its comments read as (numbers, comments, attachments): used by the posts of
// objects.ts and by the comment routes of engagement.ts, which depend on this file rather than on each other.
import { commentsOn, metricsOf, repliesTo } from '../core/engagement.ts';
import { project } from '../core/graph.ts';
import type { FieldSel, NodeType, Resolver } from '../core/graph.ts';
import { graphTime } from '../core/meta-publish.ts';
import { text } from '../core/objects.ts';
import type { PlatformSlice } from '../core/store.ts';
import type { JsonObject, JsonValue, ObjectRecord } from '../core/types.ts';

function pictureOf(url: string | null): Resolver {
  return (sel) => {
    const data: JsonObject = { height: 50, is_silhouette: url === null, url, width: 50 };
    return {
      data: sel.sub
        ? project(
            {
              typeName: 'ProfilePictureSource',
              defaults: [],
              fields: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, () => v])),
            },
            sel.sub,
          )
        : data,
    };
  };
}

function fromNode(comment: ObjectRecord): NodeType {
  const avatar = typeof comment.authorAvatarUrl === 'string' ? comment.authorAvatarUrl : null;
  return {
    typeName: 'User',
    defaults: ['name', 'id'],
    fields: { id: () => text(comment.authorId), name: () => text(comment.authorName), picture: pictureOf(avatar) },
  };
}

export function commentNode(slice: PlatformSlice, comment: ObjectRecord): NodeType {
  const parent = typeof comment.parentId === 'string' ? comment.parentId : null;
  return {
    typeName: 'Comment',
    defaults: ['created_time', 'from', 'message', 'id'],
    fields: {
      id: () => comment.id,
      message: () => text(comment.text),
      created_time: () => graphTime(comment.createdAt),
      from: (sel) => project(fromNode(comment), sel.sub),
      like_count: () => comment.likeCount ?? 0,
      comment_count: () => repliesTo(slice, comment.id).length,
      is_hidden: () => comment.hidden === true,
      can_comment: () => true,
      can_reply_privately: () => comment.fromAccount !== true,
      // The post's own link (on the simulator's base) with the comment named, as Facebook's comment links are.
      permalink_url: () =>
        `${text(slice.posts.get(text(comment.postId))?.permalink)}?comment_id=${comment.id.split('_')[1] ?? comment.id}`,
      parent: (sel) =>
        parent ? project({ typeName: 'Comment', defaults: ['id'], fields: { id: () => parent } }, sel.sub) : undefined,
      object: () => ({ id: text(comment.postId) }),
    },
  };
}

/** `comments.summary(true).limit(n)` on a post, or a comment's `comments` edge. */
function commentsEdge(slice: PlatformSlice, list: ObjectRecord[], total: number, sel: FieldSel): JsonValue {
  const limit = sel.args.limit !== undefined ? Number(sel.args.limit) : 25;
  const out: JsonObject = {
    data: list.slice(0, Math.max(0, limit)).map((c) => project(commentNode(slice, c), sel.sub)),
  };
  if (sel.args.summary !== undefined && sel.args.summary !== 'false')
    out.summary = { order: 'chronological', total_count: total, can_comment: true };
  return out;
}

const imageOf = (record: ObjectRecord): JsonObject => ({
  src: text(record.url) || `https://scontent.xx.fbcdn.net/v/${record.id}.jpg`,
  width: 960,
  height: 720,
});

/** StoryAttachmentMedia: `image` always, `source` (the playable file) on videos only. */
function mediaNode(record: ObjectRecord): NodeType {
  return {
    typeName: 'StoryAttachmentMedia',
    defaults: ['image'],
    fields: {
      image: () => imageOf(record),
      source: () => (record.kind === 'video' ? `https://video.xx.fbcdn.net/v/${record.id}.mp4` : undefined),
    },
  };
}

/** The attachments edge: one `photo` or `video`, or an `album` with its photos as subattachments. */
function attachments(post: ObjectRecord, media: ObjectRecord[], sel: FieldSel): JsonValue {
  const node = (m: ObjectRecord): NodeType => ({
    typeName: 'StoryAttachment',
    defaults: ['media_type', 'target', 'url'],
    fields: {
      media_type: () => (m.kind === 'video' ? 'video' : 'photo'),
      media: (s) => project(mediaNode(m), s.sub),
      target: () => ({ id: m.id, url: text(post.permalink) }),
      url: () => text(post.permalink),
      subattachments: () => undefined,
    },
  });
  if (media.length === 0) return { data: [] };
  if (media.length === 1) return { data: [project(node(media[0]!), sel.sub)] };
  const album: NodeType = {
    typeName: 'StoryAttachment',
    defaults: ['media_type', 'target', 'url'],
    fields: {
      media_type: () => 'album',
      media: (s) =>
        project(
          { ...mediaNode(media[0]!), fields: { ...mediaNode(media[0]!).fields, source: () => undefined } },
          s.sub,
        ),
      target: () => ({ id: post.id, url: text(post.permalink) }),
      url: () => text(post.permalink),
      subattachments: (s) => ({ data: media.map((m) => project(node(m), s.sub)) }),
    },
  };
  return { data: [project(album, sel.sub)] };
}

/** What a post node adds for reads: its numbers, comments and attachments (spread into the Post node of objects.ts). */
export function engagementFields(
  slice: PlatformSlice,
  post: ObjectRecord,
  media: ObjectRecord[],
): Record<string, Resolver> {
  const metrics = metricsOf(slice, post);
  return {
    reactions: (sel) => ({
      data: [],
      ...(sel.args.summary !== undefined && sel.args.summary !== 'false'
        ? { summary: { total_count: metrics.likes, viewer_reaction: 'NONE' } }
        : {}),
    }),
    comments: (sel) => commentsEdge(slice, commentsOn(slice, post.id).reverse(), metrics.comments, sel),
    // Graph leaves `shares` out of a post nobody shared.
    shares: () => (metrics.shares > 0 ? { count: metrics.shares } : undefined),
    attachments: (sel) => attachments(post, media, sel),
  };
}

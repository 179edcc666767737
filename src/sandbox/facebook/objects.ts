// What publishing leaves behind on the Graph: Page posts, photos and videos as nodes for GET /{id}?fields=…
// (reconciliation, video status) and DELETE /{id}.
import { graphAuth, graphError, unsupportedGet, project } from '../core/graph.ts';
import type { NodeType } from '../core/graph.ts';
import { sendJson } from '../core/http.ts';
import { graphTime } from '../core/meta-publish.ts';
import { findObject, text } from '../core/objects.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Simulator } from '../core/route.ts';
import type { PlatformSlice } from '../core/store.ts';
import type { JsonObject, JsonValue, ObjectRecord } from '../core/types.ts';
import { SANDBOX_APPS } from '../apps.ts';
import type { Viewer } from './nodes.ts';
import { pagePostDenied } from './page-actor.ts';
import { engagementFields } from './post-nodes.ts';
import { versionOk } from './version.ts';

export function isPublishedObject(slice: PlatformSlice, id: string): boolean {
  return slice.posts.has(id) || slice.media.has(id);
}

function visible(v: Viewer, record: ObjectRecord): boolean {
  if (record.accountId !== v.token.accountId) return false;
  return v.token.kind !== 'page' || v.token.assetId === record.pageId;
}

function fromField(v: Viewer, pageId: string) {
  const page = v.account.assets.find((a) => a.id === pageId);
  const node: NodeType = {
    typeName: 'Page',
    defaults: ['name', 'id'],
    fields: { id: () => pageId, name: () => page?.name ?? '' },
  };
  return (sel: { sub: Parameters<typeof project>[1] }): JsonValue => project(node, sel.sub);
}

export function postNode(v: Viewer, post: ObjectRecord): NodeType {
  const pageId = text(post.pageId);
  const media = Array.isArray(post.media) ? post.media.map(String) : [];
  const photos = media.map((id) => v.call.slice.media.get(id)).filter((m): m is ObjectRecord => m !== undefined);
  return {
    typeName: 'Post',
    defaults: ['created_time', 'message', 'id'],
    fields: {
      id: () => post.id,
      message: () => text(post.text) || undefined,
      created_time: () => graphTime(post.createdAt),
      updated_time: () => graphTime(post.createdAt),
      permalink_url: () => text(post.permalink),
      is_published: () => post.is_published ?? true,
      scheduled_publish_time: () => post.scheduled_publish_time ?? undefined,
      status_type: () => text(post.status_type),
      full_picture: () => (photos[0] ? text(photos[0].url) || null : null),
      from: fromField(v, pageId),
      attachments: () => ({
        data: photos.map(
          (p): JsonObject => ({
            media_type: p.kind === 'video' ? 'video' : 'photo',
            target: { id: p.id },
            url: text(post.permalink),
          }),
        ),
      }),
      // Reactions, comments, shares and attachments with sub-selections: the read side (engagement.ts).
      ...engagementFields(v.call.slice, post, photos),
    },
  };
}

function photoNode(v: Viewer, photo: ObjectRecord): NodeType {
  return {
    typeName: 'Photo',
    defaults: ['created_time', 'name', 'id'],
    fields: {
      id: () => photo.id,
      name: () => text(photo.caption) || undefined,
      created_time: () => graphTime(photo.createdAt),
      link: () => `https://www.facebook.com/photo.php?fbid=${photo.id}`,
      page_story_id: () => photo.attachedTo ?? undefined,
      images: () => [
        { height: 720, width: 960, source: text(photo.url) || `https://scontent.xx.fbcdn.net/v/${photo.id}.jpg` },
      ],
      from: fromField(v, text(photo.pageId)),
    },
  };
}

function videoNode(v: Viewer, video: ObjectRecord): NodeType {
  const published = video.published === true;
  return {
    typeName: 'Video',
    defaults: ['description', 'updated_time', 'id'],
    fields: {
      id: () => video.id,
      title: () => text(video.title),
      description: () => text(video.description),
      created_time: () => graphTime(video.createdAt),
      updated_time: () => graphTime(video.createdAt),
      permalink_url: () => `/${text(video.pageId)}/videos/${video.id}/`,
      published: () => published,
      length: () => 0,
      from: fromField(v, text(video.pageId)),
      status: () => ({
        video_status: video.video_status ?? 'processing',
        uploading_phase: { status: 'complete', bytes_transferred: video.bytes ?? 0 },
        processing_phase: {
          status: video.processing_phase ?? 'in_progress',
          ...(video.error ? { errors: [{ code: 1363008, message: video.error }] } : {}),
        },
        publishing_phase: {
          status: video.publishing_phase ?? 'not_started',
          publish_status: published ? 'published' : 'not_published',
        },
      }),
    },
  };
}

/** The node of a post, photo or video the viewer may see, or null. */
export function publishedNode(v: Viewer, id: string): NodeType | null {
  const post = findObject(v.call, 'posts', id);
  if (post && visible(v, post)) return postNode(v, post);
  const media = findObject(v.call, 'media', id);
  if (!media || !visible(v, media)) return null;
  if (media.kind === 'photo') return photoNode(v, media);
  if (media.kind === 'video') return videoNode(v, media);
  return null;
}

export function registerFacebookObjects(sim: Simulator): void {
  addRoute(sim, {
    method: 'DELETE',
    url: '/:version/:id',
    ops: ['delete'],
    surface: 'api',
    handler: (req, reply, call) => {
      if (!versionOk(req, reply)) return reply;
      const token = graphAuth(call, req, reply, {
        kinds: ['short', 'long', 'page'],
        appId: SANDBOX_APPS.facebook.clientId,
        aboutMe: false,
      });
      if (!token) return reply;
      const id = (req.params as { id: string }).id;
      const record = findObject(call, 'posts', id) ?? findObject(call, 'media', id);
      if (!record || record.accountId !== token.accountId) return sendAnswer(reply, unsupportedGet(id, 'delete'));
      if (token.kind !== 'page' || token.assetId !== record.pageId) return sendAnswer(reply, pagePostDenied());
      if (!token.scopes.includes('pages_manage_posts'))
        return sendAnswer(
          reply,
          graphError(403, { message: "(#10) This endpoint requires the 'pages_manage_posts' permission.", code: 10 }),
        );
      call.slice.posts.delete(id);
      call.slice.media.delete(id);
      // The post's comments and replies go with it.
      for (const c of [...call.slice.comments.values()])
        if (c.postId === id || c.postId === record.attachedTo) call.slice.comments.delete(c.id);
      // Deleting a photo or video also removes the post that shows it, and the other way round.
      const linked = text(record.attachedTo) || text(record.postId) || text(record.videoId);
      if (linked) {
        call.slice.posts.delete(linked);
        call.slice.media.delete(linked);
      }
      return sendJson(reply, 200, { success: true });
    },
  });
}

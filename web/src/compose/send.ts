// Sending the composer's post: publish now (the post route of its type), or send it for approval (POST /unified/drafts
// with pending_approval: another member approves it, and it is then published, or scheduled at the time asked).
import { api, must } from '../api/client.ts';
import type { PostBody, PostType } from './post.ts';

export function publish(body: PostBody, type: PostType) {
  switch (type) {
    case 'image':
      return must(api.POST('/unified/post/image', { body }));
    case 'carousel':
      return must(api.POST('/unified/post/carousel', { body: { ...body, image_ids: body.image_ids ?? [] } }));
    case 'video':
      return must(api.POST('/unified/post/video', { body }));
    default:
      // An empty text is the API's to refuse, beside the field, in its own words.
      return must(api.POST('/unified/post/text', { body: { ...body, default_text: body.default_text ?? '' } }));
  }
}

/** Held for another member's approval; `scheduledTime`: scheduled at that time once approved, else published. */
export function sendForApproval(body: PostBody, type: PostType, scheduledTime?: string) {
  return must(
    api.POST('/unified/drafts', {
      body: {
        ...body,
        post_type: type,
        pending_approval: true,
        ...(scheduledTime ? { scheduled_time: scheduledTime } : {}),
      },
    }),
  );
}

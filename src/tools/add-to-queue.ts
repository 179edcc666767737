// add_to_queue: a post into a posting queue's next free slot (or its first slot with share_next), as
// POST /unified/queue/{queue}/posts does. A workspace that holds tool posts for approval refuses it: a queued post
// would go out without a member's approval, and the approval step holds posts as drafts, which have no queue.
import { z } from 'zod';
import { AppError } from '../errors.ts';
import { exampleSlugs } from '../platforms/naming.ts';
import { NETWORKS } from '../platforms/registry.ts';
import { splitList } from '../platforms/arguments.ts';
import { parsePostBody, withoutNulls } from '../publishing/index.ts';
import { defineTool } from './tool.ts';
import { platformList, stringList } from './args.ts';

export const addToQueue = defineTool({
  name: 'add_to_queue',
  description:
    "Put a text or image post in a posting queue's next free slot (queue default: 'default'); share_next=true takes the first slot and moves the others down one. Answers with the slot taken. Costs 1 scheduled-post credit per network; see get_queue (it also names the feeds in queue mode).",
  input: z.object({
    queue: z.string().max(64).optional().describe("The queue's name (default: 'default')."),
    platforms: stringList.describe(`Networks to post to, e.g. ${exampleSlugs(NETWORKS)}.`),
    default_text: z.string().max(20_000).optional().describe('The post text.'),
    default_image_id: z.string().max(500).optional().describe('Image post: a media_id.'),
    default_image_url: z.string().max(4000).optional().describe('Image post: an image URL instead.'),
    share_next: z.boolean().optional().describe('Take the first slot; later posts move down one slot.'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  effect: { kind: 'write', held: 'post' },
  credits: { type: 'posts', amount: 1, per: 'network (a scheduled-post credit)' },
  async run(ctx, args) {
    const { app, caller } = ctx;
    const p = caller.principal;
    ctx.require('scheduling_enabled');
    const platforms = platformList(app, splitList(args.platforms));
    if (!platforms.length) throw new AppError('bad_request', 'platforms must have at least one platform');
    ctx.allow(platforms);
    if (await app.publishing.approvals.required(p.workspaceId))
      throw new AppError(
        'forbidden',
        'This workspace holds tool posts for approval: use publish with draft=true, and a member schedules it.',
      );
    const postType = args.default_image_id || args.default_image_url ? 'image' : 'text';
    const body = parsePostBody(
      app.platforms.networks,
      postType,
      withoutNulls({
        platforms,
        default_text: args.default_text,
        default_image_id: args.default_image_id,
        default_image_url: args.default_image_url,
      }),
    );
    const result = await app.queues.add(p, args.queue ?? 'default', postType, body, { shareNext: args.share_next });
    return { ...(result.body as Record<string, unknown>), success: true, post_type: postType };
  },
});

// get_queue: a posting queue (its slots, time zone, pause) and its next free slots, as GET /unified/queues/{queue}
// and GET /unified/queue/{queue}/next-slots answer; without a name, every queue of the workspace. Both name the feeds
// in queue mode whose new items take the queue's slots (GET /unified/feeds).
import { z } from 'zod';
import { localIso } from '../scheduling/time.ts';
import { shownUrl } from '../feeds/index.ts';
import { defineTool } from './tool.ts';

const DEFAULT = 'default';

export const getQueue = defineTool({
  name: 'get_queue',
  description:
    "A posting queue: its weekly slots, time zone, pause, posts waiting, next free slots (queue default: 'default') and the followed feeds in queue mode whose new items take its slots; all=true lists every queue. Use it before add_to_queue. Free; needs the plan's scheduling feature.",
  input: z.object({
    queue: z.string().max(64).optional().describe("The queue's name (default: 'default')."),
    count: z.number().int().min(1).max(20).optional().describe('How many free slots to show (default 5).'),
    all: z.boolean().optional().describe('List every queue instead.'),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  effect: { kind: 'read' },
  credits: null,
  async run(ctx, args) {
    const { app, caller } = ctx;
    ctx.require('scheduling_enabled');
    const p = caller.principal;
    // Feeds in queue mode, by the queue their items join (null: the default queue).
    const feeds = (await app.feeds.list(p))
      .filter((f) => f.mode === 'queue')
      .map((f) => ({
        id: f.id,
        url: shownUrl(f.url),
        networks: f.networks,
        paused: f.paused,
        queue: f.queue ?? DEFAULT,
      }));
    if (args.all) {
      const queues = await app.queues.list(p);
      return { success: true, message: `Found ${queues.length} queues.`, queues, feeds };
    }
    const { queue, slots } = await app.queues.nextSlots(p, args.queue ?? DEFAULT, args.count ?? 5);
    return {
      success: true,
      message: `Queue '${queue.name}': ${queue.queued_posts} waiting${queue.paused ? ', paused' : ''}.`,
      queue,
      feeds: feeds.filter((f) => f.queue === queue.name).map(({ queue: _q, ...f }) => f),
      next_slots: slots.map((at) => ({ slot_time: at.toISOString(), slot_time_local: localIso(at, queue.time_zone) })),
    };
  },
});

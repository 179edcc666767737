// get_queue: a posting queue (its slots, time zone, pause) and its next free slots, as GET /unified/queues/{queue}
// and GET /unified/queue/{queue}/next-slots answer; without a name, every queue of the workspace.
import { z } from 'zod';
import { localIso } from '../scheduling/time.ts';
import { defineTool } from './tool.ts';

export const getQueue = defineTool({
  name: 'get_queue',
  description:
    "A posting queue: its weekly slots, time zone, whether it is paused, how many posts wait, and its next free slots (queue default: 'default'); all=true lists every queue. Use it before add_to_queue. Free; needs the plan's scheduling feature.",
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
    if (args.all) {
      const queues = await app.queues.list(p);
      return { success: true, message: `Found ${queues.length} queues.`, queues };
    }
    const { queue, slots } = await app.queues.nextSlots(p, args.queue ?? 'default', args.count ?? 5);
    return {
      success: true,
      message: `Queue '${queue.name}': ${queue.queued_posts} waiting${queue.paused ? ', paused' : ''}.`,
      queue,
      next_slots: slots.map((at) => ({ slot_time: at.toISOString(), slot_time_local: localIso(at, queue.time_zone) })),
    };
  },
});

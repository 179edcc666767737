import { slugList } from '../platforms/naming.ts';
import { NETWORKS } from '../platforms/registry.ts';
import { z } from 'zod';
import { draftToWire } from '../publishing/index.ts';
import { STATUSES } from '../scheduling/index.ts';
import type { Feature } from '../auth/plans.ts';
import { defineTool } from './tool.ts';
import { platformList } from './args.ts';

const LIMIT = 50;
const DRAFT_STATUSES = ['draft', 'pending_approval'];

export const getQueuedPosts = defineTool({
  name: 'get_queued_posts',
  description:
    "Posts waiting to go out: scheduled entries (with their time and status) and/or drafts, newest first, up to 50 each. Use it before rescheduling or to check what is planned. Free; needs the plan's scheduling / drafts features.",
  input: z.object({
    type: z.enum(['scheduled', 'draft', 'all']).optional().describe('scheduled, draft, or all (default all).'),
    platform: z
      .string()
      .optional()
      .describe(`Only this network (one of ${slugList(NETWORKS)}).`),
    status: z
      .enum([...STATUSES, ...DRAFT_STATUSES] as [string, ...string[]])
      .optional()
      .describe(
        'Only entries in this status: scheduled, publishing, published, failed, cancelled (scheduled posts); draft, pending_approval (drafts).',
      ),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  effect: { kind: 'read' },
  credits: null,
  async run(ctx, args) {
    const { app, caller } = ctx;
    const p = caller.principal;
    const platform = args.platform ? platformList(app, [args.platform])[0] : undefined;
    if (platform) ctx.allow([platform]);
    const type = args.type ?? 'all';
    const has = (f: Feature) => app.plans.get(p.planId).features[f] === true;
    // 'all' lists what the plan has; a kind asked for by name is the plan's 403 when it lacks it, as on REST.
    // A status belongs to one kind: with type 'all' it lists that kind only.
    const draftStatus = args.status !== undefined && DRAFT_STATUSES.includes(args.status);
    const wantScheduled = type === 'scheduled' || (type === 'all' && has('scheduling_enabled') && !draftStatus);
    const wantDrafts =
      type === 'draft' || (type === 'all' && has('drafts_enabled') && (args.status === undefined || draftStatus));
    if (type === 'all' && !wantScheduled && !wantDrafts)
      ctx.require(draftStatus ? 'drafts_enabled' : 'scheduling_enabled');
    const out: { success: true; scheduled_posts?: unknown[]; drafts?: unknown[]; message: string } = {
      success: true,
      message: '',
    };
    const said: string[] = [];
    if (wantScheduled) {
      ctx.require('scheduling_enabled');
      const rows = draftStatus
        ? []
        : await app.scheduling.list(p, { platform, status: args.status, limit: LIMIT, offset: 0 });
      out.scheduled_posts = await app.scheduling.wire(rows, p.workspaceId);
      said.push(`${rows.length} scheduled post${rows.length === 1 ? '' : 's'}`);
    }
    if (wantDrafts) {
      ctx.require('drafts_enabled');
      const status = draftStatus ? args.status : undefined;
      const { rows } =
        args.status !== undefined && !draftStatus
          ? { rows: [] }
          : await app.drafts.list(p.workspaceId, { platform, status, limit: LIMIT, offset: 0 });
      out.drafts = rows
        .filter((d) => p.scope.platforms.has(d.platform as never))
        .map((d) => draftToWire(app.platforms.networks, d));
      said.push(`${out.drafts.length} draft${out.drafts.length === 1 ? '' : 's'}`);
    }
    out.message = `Found ${said.join(' and ')}.`;
    return out;
  },
});

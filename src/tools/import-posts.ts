// import_posts: a file of posts (CSV or JSON lines, the format of POST /unified/bulk/import) for chat clients. By
// default it only validates, so a model shows the report before anything is scheduled; with `import: true` it writes,
// and a workspace that holds tools' posts for approval (tool_posts_need_approval) gets them as drafts pending approval.
import { Readable } from 'node:stream';
import { z } from 'zod';
import { BULK_MAX_ROWS } from '../scheduling/index.ts';
import { defineTool } from './tool.ts';

/** A file a tool argument can carry (a chat message is no 50 MB upload: the REST routes take those). */
const MAX_CHARS = 1_000_000;

export const importPosts = defineTool({
  name: 'import_posts',
  description: `Checks a CSV or JSON-lines file of posts (columns text, networks, time, queue (a queue's next free slot instead of a time), media_urls, draft, first_comment, linkedin_text…) row by row; with import: true schedules it. Up to ${BULK_MAX_ROWS} rows. Free; each scheduled network uses a scheduled-post credit.`,
  input: z.object({
    file: z
      .string()
      .min(1)
      .max(MAX_CHARS)
      .describe('The file itself: CSV with a header row, or one JSON object per line.'),
    format: z.enum(['csv', 'jsonl']).optional().describe('csv (default) or jsonl.'),
    import: z
      .boolean()
      .optional()
      .describe('false (default): only validate and report. true: schedule the posts and save the drafts.'),
    valid_only: z
      .boolean()
      .optional()
      .describe('With import: write the valid rows and report the others (default: any invalid row writes nothing).'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  effect: { kind: 'write', held: 'post' },
  credits: null,
  async run(ctx, args) {
    const { app, caller } = ctx;
    const p = caller.principal;
    const format = args.format ?? 'csv';
    const source = Readable.from([Buffer.from(args.file, 'utf8')]);
    if (!args.import) {
      const report = await app.bulk.validate(p, source, format);
      const message = report.success
        ? `All ${report.rows} rows are valid. Call again with import: true to schedule them.`
        : `${report.invalid} of ${report.rows} rows have errors; nothing was written.`;
      return { ...report, message };
    }
    // Held for approval when the workspace asks for it: the posts become drafts a member approves one by one.
    const held = caller.approvedBy === undefined && (await app.publishing.approvals.required(p.workspaceId));
    const report = await app.bulk.import(p, source, format, {
      mode: args.valid_only ? 'valid_only' : 'all_or_nothing',
      heldVia: held ? caller.surface : undefined,
    });
    const message = held
      ? `${report.imported} rows saved as drafts pending approval: a member approves them before they are scheduled.`
      : `${report.imported} rows imported: ${report.scheduled.length} scheduled posts, ${report.drafts.length} drafts.`;
    return { ...report, ...(held ? { pending_approval: true } : {}), message };
  },
});

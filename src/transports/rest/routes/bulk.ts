// /unified/bulk: validate and import a file of posts (CSV or JSON lines, streamed: the body is read as it arrives,
// never held whole), and export the workspace's posts in the same format. docs/workflow.md describes the columns.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import { AppError } from '../../../errors.ts';
import { assertContentLength } from '../../../media/form.ts';
import { dateTime } from '../../../publishing/index.ts';
import { BULK_MAX_BYTES, BULK_MAX_ROWS, type BulkFormat, STATUSES } from '../../../scheduling/index.ts';
import { principalOf } from '../access.ts';
import { errorResponses, workspaceSecurity } from '../schemas.ts';

const FORMATS: Record<string, BulkFormat> = {
  'text/csv': 'csv',
  'application/x-ndjson': 'jsonl',
  'application/jsonl': 'jsonl',
  'application/json-lines': 'jsonl',
};

const rowError = z.object({
  row: z.number().int().describe('The row of the file: in CSV the header is row 1; in JSON lines, the line.'),
  column: z.string().nullable().describe('The column at fault, or null for the row as a whole.'),
  message: z.string(),
});
const report = z.object({
  success: z.boolean().describe('Whether every row is valid.'),
  rows: z.number().int().describe('Post rows read (not the header, nor blank lines).'),
  valid: z.number().int(),
  invalid: z.number().int().describe('Rows with at least one error.'),
  errors: z.array(rowError),
  queued: z
    .array(z.object({ row: z.number().int(), queue: z.string(), slot_time: z.string() }))
    .optional()
    .describe(
      "A validation: the slot each valid row naming a queue would take (the queue's next free slots, in row order).",
    ),
});
const importReport = report.extend({
  mode: z.enum(['all_or_nothing', 'valid_only']),
  imported: z.number().int().describe('Rows written.'),
  scheduled: z.array(
    z.object({
      row: z.number().int(),
      platform: z.string(),
      scheduled_post_id: z.string(),
      scheduled_time: z.string(),
    }),
  ),
  drafts: z.array(z.object({ row: z.number().int(), platform: z.string(), draft_id: z.string(), status: z.string() })),
  credits_reserved: z.number().int().describe('Scheduled-post credits spent for the whole import, in one reservation.'),
});

const FILE_NOTE =
  `The file is the body: text/csv (RFC 4180, UTF-8 with or without a byte order mark, a header row naming the columns) ` +
  `or application/x-ndjson (one JSON object per line, keyed by the same column names). Columns: text, networks ` +
  `(slugs separated by commas or spaces), time (ISO 8601 with an offset, or a local time in the workspace's time ` +
  `zone), queue, media_urls, draft, and one per network text field (linkedin_text…). At most ${BULK_MAX_ROWS} posts ` +
  `and ${BULK_MAX_BYTES} bytes.`;
const fileBody = z.string().describe('The file: CSV with a header row, or JSON lines.');
const documentedBody = { 'text/csv': fileBody, 'application/x-ndjson': fileBody };

export async function bulkRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  // The file is read from the raw request as it arrives: no parser buffers it.
  for (const type of Object.keys(FORMATS)) app.addContentTypeParser(type, (_req, _payload, done) => done(null));
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = { kind: 'workspace' as const, feature: 'bulk_scheduling_enabled' as const };

  /** The body's format and stream, or the 415 / 413 answer. */
  function fileOf(req: FastifyRequest): { format: BulkFormat; source: AsyncIterable<Buffer> } {
    const type = String(req.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    const format = FORMATS[type];
    if (!format || req.raw.readableEnded)
      throw new AppError(
        'unsupported_media_type',
        `Unsupported Content-Type ${type ? `'${type}'` : '(none)'}: send the file as text/csv or application/x-ndjson (JSON lines).`,
      );
    assertContentLength(req.headers, BULK_MAX_BYTES);
    return { format, source: req.raw };
  }

  r.post(
    '/unified/bulk/validate',
    {
      config: { access },
      bodyLimit: BULK_MAX_BYTES,
      schema: {
        tags: ['scheduling'],
        operationId: 'validateBulkImport',
        summary: 'Check a bulk import file row by row, writing nothing',
        responseDescription: 'The report: every row and column at fault, with the row number.',
        description: `Checks every row as the import would (the post routes' own rules), without downloading media or writing anything. ${FILE_NOTE} Faults of the file as a whole (not UTF-8, unknown columns, empty) are 422.`,
        consumes: Object.keys(documentedBody),
        documentedBody,
        security: workspaceSecurity,
        response: { 200: report },
      },
    },
    async (req) => {
      const { format, source } = fileOf(req);
      return ctx.bulk.validate(principalOf(req), source, format);
    },
  );

  r.post(
    '/unified/bulk/import',
    {
      config: { access },
      bodyLimit: BULK_MAX_BYTES,
      schema: {
        tags: ['scheduling'],
        operationId: 'importBulkPosts',
        summary: 'Schedule or save as drafts every post of a file',
        responseDescription: 'What was written, row by row, and the rows refused (mode valid_only).',
        description: `${FILE_NOTE} Media URLs are imported into the library through the address policy. The credits of every scheduled post are reserved at once before anything is written (402 otherwise). mode=all_or_nothing (default): one invalid row refuses the file with 422 and writes nothing; mode=valid_only writes the valid rows and reports the others.`,
        consumes: Object.keys(documentedBody),
        documentedBody,
        querystring: z.object({ mode: z.enum(['all_or_nothing', 'valid_only']).default('all_or_nothing') }),
        security: workspaceSecurity,
        response: { 200: importReport, ...errorResponses(402) },
      },
    },
    async (req) => {
      const { format, source } = fileOf(req);
      return ctx.bulk.import(principalOf(req), source, format, { mode: req.query.mode });
    },
  );

  r.get(
    '/unified/bulk/export',
    {
      config: { access },
      schema: {
        tags: ['scheduling'],
        operationId: 'exportBulkPosts',
        summary: 'Export scheduled, published and draft posts as CSV or JSON lines',
        // Not `produces`: fastify-swagger would then list the JSON error answers under the file's types too.
        responseDescription: 'The file (text/csv or application/x-ndjson), in the import format: one row per network.',
        description:
          'One row per network: queue entries (scheduled, published, or the status asked for) by time, then drafts (without from, to or with status=draft). CSV cells a spreadsheet would run as a formula (= + - @) are prefixed with a single quote, which an import removes again. At most 10000 rows: narrow with from and to.',
        querystring: z.object({
          format: z.enum(['csv', 'json']).default('csv'),
          from: dateTime.optional().describe('Only posts scheduled at or after this time.'),
          to: dateTime.optional().describe('Only posts scheduled before this time.'),
          status: z.enum(['draft', ...STATUSES]).optional(),
        }),
        security: workspaceSecurity,
        response: { 200: z.string().describe('CSV with a header row, or JSON lines.') },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const file = await ctx.bulk.export(principalOf(req), {
        format: q.format,
        from: q.from ? new Date(q.from) : undefined,
        to: q.to ? new Date(q.to) : undefined,
        status: q.status,
      });
      const csv = q.format === 'csv';
      return reply
        .header('content-type', csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="herald-posts.${csv ? 'csv' : 'jsonl'}"`)
        .send(file);
    },
  );
}

// The Import page's pure part: the template's header is exactly the import's columns (derived by the app from
// GET /unified/platforms' override schemas), a chosen file's Content-Type, and what an import created, row by row.
import { describe, expect, it } from 'vitest';
import { composerRules } from '../../src/platforms/composer.ts';
import { Networks } from '../../src/platforms/registry.ts';
import { allColumns } from '../../src/scheduling/bulk/columns.ts';
import {
  BASE_COLUMNS,
  createdRows,
  formatOf,
  importColumns,
  templateCsv,
} from '../../web/src/pages/import/template.ts';

describe('the import template', () => {
  it('has the columns the import reads, in the export order', () => {
    const networks = new Networks();
    const wire = networks.networks.map((n) => composerRules(n));
    expect(importColumns(wire)).toEqual(allColumns(networks));
    expect(templateCsv(['text', 'networks'])).toBe('text,networks\r\n');
  });

  it('reads a nullable or optional string as a text column, ignores fields not named after the network, adds a first comment where a network takes one', () => {
    const columns = importColumns([
      {
        slug: 'net',
        override_schema: {
          properties: {
            net_text: { type: 'string' },
            net_title: { anyOf: [{ type: 'string' }, { type: 'null' }] },
            net_flag: { type: 'boolean' },
            other_text: { type: 'string' },
          },
        },
      },
      { slug: 'plain', override_schema: null, first_comment: { limit: 100, form: 'comment' } },
      { slug: 'none', override_schema: null, first_comment: null },
    ]);
    expect(columns.slice(BASE_COLUMNS.length)).toEqual(['net_text', 'net_title', 'plain_first_comment']);
  });
});

describe('a chosen file', () => {
  it('is sent as CSV or JSON lines by its name, else by its type', () => {
    expect(formatOf({ name: 'Posts.CSV', type: '' })).toBe('text/csv');
    expect(formatOf({ name: 'posts.jsonl', type: '' })).toBe('application/x-ndjson');
    expect(formatOf({ name: 'posts.ndjson', type: 'application/octet-stream' })).toBe('application/x-ndjson');
    expect(formatOf({ name: 'export', type: 'text/csv' })).toBe('text/csv');
    expect(formatOf({ name: 'notes.txt', type: 'text/plain' })).toBeUndefined();
  });
});

describe('what an import created', () => {
  it('lists scheduled posts and drafts by row, then network', () => {
    const rows = createdRows({
      scheduled: [
        { row: 3, platform: 'b', scheduled_post_id: 's2', scheduled_time: '2026-12-01T09:00:00Z' },
        { row: 2, platform: 'b', scheduled_post_id: 's1', scheduled_time: '2026-12-01T08:00:00Z' },
      ],
      drafts: [{ row: 2, platform: 'a', draft_id: 'd1' }],
    });
    expect(rows).toEqual([
      { row: 2, platform: 'a', scheduledTime: undefined, id: 'd1' },
      { row: 2, platform: 'b', scheduledTime: '2026-12-01T08:00:00Z', id: 's1' },
      { row: 3, platform: 'b', scheduledTime: '2026-12-01T09:00:00Z', id: 's2' },
    ]);
  });
});

// The bulk import's file as the Import page handles it: the template's header (the columns the import reads, from
// GET /unified/platforms), the Content-Type a chosen file is sent with, and the rows the import created. Pure: no DOM.

/** The columns every file may have, in the order an export writes them (the import's own list). */
export const BASE_COLUMNS = ['text', 'networks', 'time', 'queue', 'media_urls', 'draft', 'first_comment'] as const;

interface NetworkSchema {
  slug: string;
  override_schema: { properties: Record<string, unknown> } | null;
  /** The network's first-comment rule; null: it takes none (absent: not said). */
  first_comment?: unknown;
}

const isText = (node: unknown): boolean => {
  if (!node || typeof node !== 'object') return false;
  const n = node as { type?: unknown; anyOf?: unknown[]; enum?: unknown };
  // A choice among fixed words (an enum) is not a text field.
  if (n.enum !== undefined) return false;
  if (n.type === 'string') return true;
  if (Array.isArray(n.type)) return n.type.includes('string');
  return Array.isArray(n.anyOf) && n.anyOf.some(isText);
};

/**
 * Every column of an import file: the base columns, then each network's text fields named after it (`<slug>_…`,
 * its override schema's string properties) and its own first comment (`<slug>_first_comment`) where it takes one, as
 * the import derives them.
 */
export function importColumns(networks: readonly NetworkSchema[]): string[] {
  const own: string[] = [];
  for (const n of networks) {
    for (const [field, schema] of Object.entries(n.override_schema?.properties ?? {}))
      if (field.startsWith(`${n.slug}_`) && isText(schema)) own.push(field);
    if (n.first_comment) own.push(`${n.slug}_first_comment`);
  }
  return [...BASE_COLUMNS, ...own];
}

/** The template file: the header row alone (CSV, CRLF as the export writes it). */
export const templateCsv = (columns: readonly string[]): string => `${columns.join(',')}\r\n`;

export type ImportFormat = 'text/csv' | 'application/x-ndjson';

/** The Content-Type a chosen file is sent with: by its name, else by its type; undefined when neither says. */
export function formatOf(file: { name: string; type: string }): ImportFormat | undefined {
  const name = file.name.toLowerCase();
  if (name.endsWith('.csv')) return 'text/csv';
  if (name.endsWith('.jsonl') || name.endsWith('.ndjson')) return 'application/x-ndjson';
  if (file.type === 'text/csv') return 'text/csv';
  if (['application/x-ndjson', 'application/jsonl', 'application/json-lines'].includes(file.type))
    return 'application/x-ndjson';
  return undefined;
}

export interface Created {
  row: number;
  platform: string;
  /** The scheduled time (ISO), or undefined for a draft. */
  scheduledTime: string | undefined;
  id: string;
}

/** What the import created, one line per network of a row, in the file's order. */
export function createdRows(answer: {
  scheduled: { row: number; platform: string; scheduled_post_id: string; scheduled_time: string }[];
  drafts: { row: number; platform: string; draft_id: string }[];
}): Created[] {
  return [
    ...answer.scheduled.map((s) => ({
      row: s.row,
      platform: s.platform,
      scheduledTime: s.scheduled_time,
      id: s.scheduled_post_id,
    })),
    ...answer.drafts.map((d) => ({ row: d.row, platform: d.platform, scheduledTime: undefined, id: d.draft_id })),
  ].sort((a, b) => a.row - b.row || a.platform.localeCompare(b.platform));
}

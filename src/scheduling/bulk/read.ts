// Reads a bulk import file as it arrives, row by row: CSV (RFC 4180, through csv-parse's streaming parser) or JSON
// lines, UTF-8 with or without a byte order mark. Never holds the whole body: the bytes are decoded and parsed chunk
// by chunk, counted against the route's limit, and each row is handed on as soon as it is complete.
// Row numbers are what a spreadsheet shows: in CSV the header is row 1 and the first post row 2 (a blank line counts
// as a row and is skipped); in JSON lines row N is line N.
import { once } from 'node:events';
import { createRequire } from 'node:module';

// csv-parse is loaded by the first CSV import, not at start-up.
const load = createRequire(import.meta.url);
const parse: typeof import('csv-parse').parse = ((...args: unknown[]) =>
  (load('csv-parse') as { parse: (...a: unknown[]) => unknown }).parse(...args)) as typeof import('csv-parse').parse;
import { AppError } from '../../errors.ts';
import { unescapeFormula } from './columns.ts';

export type BulkFormat = 'csv' | 'jsonl';

/** A cell as read: CSV gives text; JSON lines may also give a list (networks, media_urls) or a boolean (draft). */
export type Cell = string | string[] | boolean;

export type ReadRow =
  | { row: number; cells: Record<string, Cell> }
  | { row: number; error: { column: string | null; message: string } };

export interface ReadLimits {
  maxBytes: number;
  maxRows: number;
  /** The columns a file may have. */
  columns: readonly string[];
}

const fileError = (msg: string) => new AppError('validation', [{ loc: ['body'], msg, type: 'bulk_file' }]);

export const tooLarge = (maxBytes: number) =>
  new AppError('payload_too_large', `Request body too large: the limit for this route is ${maxBytes} bytes.`);

/** The bytes of the body as UTF-8 text, counted against the limit; a byte that is not UTF-8 ends the read. */
async function* decoded(source: AsyncIterable<Buffer | string>, maxBytes: number): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let read = 0;
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    read += bytes.length;
    if (read > maxBytes) throw tooLarge(maxBytes);
    try {
      const text = decoder.decode(bytes, { stream: true });
      if (text) yield text;
    } catch {
      throw fileError(
        `The file is not UTF-8 text: an invalid byte sequence ends before byte ${read}. Save it as UTF-8 (in a spreadsheet: "CSV UTF-8").`,
      );
    }
  }
  try {
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch {
    throw fileError('The file is not UTF-8 text: it ends in the middle of a character. Save it as UTF-8.');
  }
  if (read === 0) throw fileError('The file is empty: send a header row and at least one post.');
}

/** Every row of the file, in order; file-level faults (encoding, header, size, syntax) are thrown as 413 or 422. */
export function readRows(
  source: AsyncIterable<Buffer | string>,
  format: BulkFormat,
  limits: ReadLimits,
): AsyncGenerator<ReadRow> {
  return format === 'csv' ? readCsv(source, limits) : readJsonLines(source, limits);
}

function checkHeader(header: string[], columns: readonly string[]): string[] {
  const names = header.map((h) => h.trim().toLowerCase());
  const unknown = names.filter((n) => !columns.includes(n));
  if (unknown.length)
    throw fileError(
      `Unknown column${unknown.length > 1 ? 's' : ''} in the header (row 1): ${unknown.map((u) => `'${u}'`).join(', ')}. Columns: ${columns.join(', ')}.`,
    );
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length) throw fileError(`Column '${twice[0]}' appears twice in the header (row 1).`);
  if (!names.includes('text') && !names.some((n) => n.endsWith('_text')))
    throw fileError(`The header (row 1) has no text column. Columns: ${columns.join(', ')}.`);
  if (!names.includes('networks')) throw fileError('The header (row 1) has no networks column.');
  return names;
}

async function* readCsv(source: AsyncIterable<Buffer | string>, limits: ReadLimits): AsyncGenerator<ReadRow> {
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: false });
  // Fed from the body as it arrives, with the parser's back pressure; a fault of the body ends the parser with it.
  const feeding = (async () => {
    try {
      for await (const text of decoded(source, limits.maxBytes)) {
        if (!parser.write(text)) await once(parser, 'drain');
      }
      parser.end();
    } catch (err) {
      parser.destroy(err as Error);
    }
  })();
  let header: string[] | undefined;
  let row = 0;
  let posts = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row++;
      if (record.length === 1 && record[0] === '') continue;
      if (!header) {
        header = checkHeader(record, limits.columns);
        continue;
      }
      if (++posts > limits.maxRows)
        throw fileError(`The file has more than ${limits.maxRows} posts; split it into several imports.`);
      if (record.length !== header.length) {
        yield {
          row,
          error: {
            column: null,
            message: `Row ${row} has ${record.length} cells, the header has ${header.length}: check its quotes and commas.`,
          },
        };
        continue;
      }
      const cells: Record<string, Cell> = {};
      header.forEach((name, i) => {
        if (record[i] !== '') cells[name] = unescapeFormula(record[i]!);
      });
      yield { row, cells };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as { code?: string; message?: string; lines?: number };
    if (typeof e.code === 'string' && e.code.startsWith('CSV_'))
      throw fileError(`The file is not valid CSV near line ${e.lines ?? row + 1}: ${e.message ?? e.code}.`);
    throw err;
  } finally {
    parser.destroy();
    await feeding;
  }
  if (!header) throw fileError('The file is empty: send a header row and at least one post.');
  if (!posts) throw fileError('The file has a header but no posts.');
}

async function* readJsonLines(source: AsyncIterable<Buffer | string>, limits: ReadLimits): AsyncGenerator<ReadRow> {
  let row = 0;
  let posts = 0;
  let pending = '';
  const line = (text: string): ReadRow | undefined => {
    row++;
    const trimmed = text.replace(/^\uFEFF/, '').trim();
    if (!trimmed) return undefined;
    if (++posts > limits.maxRows)
      throw fileError(`The file has more than ${limits.maxRows} posts; split it into several imports.`);
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      return { row, error: { column: null, message: `Row ${row} is not a JSON object.` } };
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { row, error: { column: null, message: `Row ${row} is not a JSON object.` } };
    const cells: Record<string, Cell> = {};
    for (const [k, v] of Object.entries(value)) {
      if (!limits.columns.includes(k))
        return { row, error: { column: k, message: `Unknown column '${k}'. Columns: ${limits.columns.join(', ')}.` } };
      if (v === null || v === '') continue;
      const ok =
        typeof v === 'string' ||
        (typeof v === 'boolean' && k === 'draft') ||
        (Array.isArray(v) && (k === 'networks' || k === 'media_urls') && v.every((x) => typeof x === 'string'));
      if (!ok) return { row, error: { column: k, message: `${k} has the wrong type.` } };
      cells[k] = v as Cell;
    }
    return { row, cells };
  };
  for await (const text of decoded(source, limits.maxBytes)) {
    pending += text;
    let nl = pending.indexOf('\n');
    while (nl >= 0) {
      const got = line(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
      if (got) yield got;
      nl = pending.indexOf('\n');
    }
  }
  const last = line(pending);
  if (last) yield last;
  if (!posts) throw fileError('The file is empty: send at least one post.');
}

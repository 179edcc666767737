// Reads a streamed multipart form: text fields into memory (they are small), every file straight into
// a temp file. Nothing of a failed or truncated request is left behind.
import type { Readable } from 'node:stream';
import { AppError } from '../errors.ts';
import { assertUsableStrings } from '../input-strings.ts';
import { TooLargeError, type TempFiles } from './temp.ts';

/** The part shapes @fastify/multipart yields, narrowed to what is used here. */
export type FormPart =
  | { type: 'field'; fieldname: string; value: unknown }
  | { type: 'file'; fieldname: string; filename: string; file: Readable };

export interface FormFile {
  field: string;
  filename: string;
  path: string;
  size: number;
}

export interface Form {
  fields: Map<string, string>;
  files: FormFile[];
}

export interface ReadFormOptions {
  temp: TempFiles;
  /** Called for each text field as it arrives; throw to stop reading (fail fast). */
  onField?: (name: string, value: string, form: Form) => void;
  /** Called before a file is read; returns the largest size accepted for it, or throws to stop. */
  onFile: (field: string, form: Form) => number;
  /** The error for a file past its limit. */
  tooLarge: (limit: number, form: Form) => AppError;
}

/** busboy's and @fastify/multipart's failures, as the interface's error bodies. */
export function formError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  const e = err as { code?: string; statusCode?: number; message?: string };
  if (
    e.code === 'FST_MP_PREMATURE_CLOSE' ||
    /unexpected end|terminated early|malformed|boundary/i.test(e.message ?? '')
  ) {
    return new AppError('bad_request', 'Malformed or truncated multipart body.');
  }
  if (e.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
    return new AppError('validation', [
      { loc: ['body'], msg: 'Expected a multipart/form-data body.', type: 'content_type' },
    ]);
  }
  if (e.code === 'FST_PARTS_LIMIT' || e.code === 'FST_FILES_LIMIT' || e.code === 'FST_FIELDS_LIMIT') {
    return new AppError('payload_too_large', `Too many form parts (${e.message}).`);
  }
  if (e.code === 'FST_REQ_FILE_TOO_LARGE') return new AppError('payload_too_large', 'File too large.');
  return err;
}

export async function readForm(parts: AsyncIterable<FormPart>, opts: ReadFormOptions): Promise<Form> {
  const form: Form = { fields: new Map(), files: [] };
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value !== 'string') {
          throw new AppError('validation', [
            { loc: ['body', part.fieldname], msg: 'Expected a text field.', type: 'string_type' },
          ]);
        }
        assertUsableStrings({ [part.fieldname]: part.value }, ['body']);
        if (form.fields.has(part.fieldname)) {
          throw new AppError('validation', [
            { loc: ['body', part.fieldname], msg: 'Field given more than once.', type: 'duplicate' },
          ]);
        }
        form.fields.set(part.fieldname, part.value);
        opts.onField?.(part.fieldname, part.value, form);
        continue;
      }
      let limit: number;
      try {
        assertUsableStrings({ [part.fieldname]: { filename: part.filename } }, ['body']);
        limit = opts.onFile(part.fieldname, form);
      } catch (err) {
        // Not read at all: the rest of the request is abandoned (the route closes the connection).
        part.file.destroy();
        throw err;
      }
      try {
        const written = await opts.temp.write(part.file, limit);
        form.files.push({ field: part.fieldname, filename: part.filename, ...written });
      } catch (err) {
        if (err instanceof TooLargeError) throw opts.tooLarge(err.limit, form);
        throw err;
      }
    }
  } catch (err) {
    await opts.temp.remove(...form.files.map((f) => f.path));
    throw formError(err);
  }
  return form;
}

/** 413 from the Content-Length header alone, before any of the body is read. */
export function assertContentLength(headers: Record<string, string | string[] | undefined>, limit: number): void {
  const raw = headers['content-length'];
  const length = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : undefined;
  if (length !== undefined && length > limit) {
    throw new AppError(
      'payload_too_large',
      `Request body too large: ${length} bytes; the limit for this route is ${limit} bytes.`,
    );
  }
}

// Errors of the API as the app shows them: the API's own words (`detail`), and for invalid input the message of
// each field, keyed by the field's path in the request body (`loc` without its leading "body").
import { t } from '../i18n/index.ts';

export type FieldErrors = Record<string, string>;

interface DetailEntry {
  loc?: unknown;
  msg?: unknown;
}

export class ApiError extends Error {
  readonly status: number;
  readonly fields: FieldErrors;
  /** A machine-readable code when the API gives one ({"detail": {"error": …, "message": …}}). */
  readonly code: string | undefined;

  constructor(message: string, status: number, fields: FieldErrors = {}, code?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fields = fields;
    this.code = code;
  }

  /** The error a failed response's body describes. */
  static fromBody(body: unknown, status: number): ApiError {
    const detail = body && typeof body === 'object' ? (body as { detail?: unknown }).detail : undefined;
    if (typeof detail === 'string') return new ApiError(detail, status);
    if (Array.isArray(detail)) {
      const fields: FieldErrors = {};
      const messages: string[] = [];
      for (const entry of detail as DetailEntry[]) {
        const msg = typeof entry?.msg === 'string' ? entry.msg : '';
        const loc = Array.isArray(entry?.loc) ? entry.loc.map(String) : [];
        const path = (loc[0] === 'body' || loc[0] === 'query' ? loc.slice(1) : loc).join('.');
        if (path && !(path in fields)) fields[path] = msg;
        messages.push(path ? `${path}: ${msg}` : msg);
      }
      return new ApiError(messages.join('; ') || t.errors.invalid, status, fields);
    }
    if (detail && typeof detail === 'object') {
      const d = detail as { error?: unknown; message?: unknown };
      const message = typeof d.message === 'string' ? d.message : t.errors.status(status);
      return new ApiError(message, status, {}, typeof d.error === 'string' ? d.error : undefined);
    }
    return new ApiError(t.errors.status(status), status);
  }
}

/** A message for anything thrown: the API's words for an ApiError, a generic sentence otherwise. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof TypeError) return t.errors.network;
  if (err instanceof Error && err.message) return err.message;
  return t.errors.unknown;
}

/** The message the API gave for one field of the request body, if any. */
export function fieldError(err: unknown, field: string): string | undefined {
  return err instanceof ApiError ? err.fields[field] : undefined;
}

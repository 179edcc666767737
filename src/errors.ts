// One error type for the whole service and one table from code to HTTP status.
// Bodies follow the FastAPI convention the interface requires: {"detail": ...}.

export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'APIKEY_INVALID'
  | 'APIKEY_REVOKED'
  | 'APIKEY_EXPIRED'
  | 'APIKEY_RATE_LIMIT'
  | 'too_many_attempts'
  | 'forbidden'
  | 'scope_denied'
  | 'plan_required'
  /**
   * A plan without the feature, where the contract answers 402 instead of 403 (GPT Actions without gpt_app_enabled).
   */
  | 'plan_upgrade_required'
  | 'insufficient_credits'
  | 'limit_reached'
  | 'not_found'
  | 'conflict'
  | 'validation'
  | 'payload_too_large'
  /** A body in a format the route does not read (the bulk import's CSV or JSON lines). */
  | 'unsupported_media_type'
  | 'internal'
  | 'bad_gateway'
  /** A capability this server is not configured for (transcription without a speech-to-text model). */
  | 'not_configured';

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  APIKEY_INVALID: 401,
  APIKEY_REVOKED: 401,
  APIKEY_EXPIRED: 401,
  APIKEY_RATE_LIMIT: 429,
  too_many_attempts: 429,
  forbidden: 403,
  scope_denied: 403,
  plan_required: 403,
  plan_upgrade_required: 402,
  insufficient_credits: 402,
  limit_reached: 403,
  not_found: 404,
  conflict: 409,
  validation: 422,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal: 500,
  bad_gateway: 502,
  not_configured: 503,
};

export interface FieldError {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export type Detail = string | Record<string, unknown> | FieldError[];

// Error messages quote what the client sent ('…'); a megabyte of it must not come back whole.
const ECHO_MAX = 100;
const MESSAGE_MAX = 1000;
const QUOTED = /'([^']{101,})'|"([^"]{101,})"/g;

function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  // Never split a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(s[max - 1] ?? '') ? max - 1 : max;
  return `${s.slice(0, end)}…`;
}

/** Shortens every quoted value in a message to 100 characters, and the whole message to 1000. */
export function capEchoes(text: string): string {
  const quoted = text.replace(QUOTED, (_m, single: string | undefined, double: string | undefined) =>
    single !== undefined ? `'${cut(single, ECHO_MAX)}'` : `"${cut(double!, ECHO_MAX)}"`,
  );
  return cut(quoted, MESSAGE_MAX);
}

function capDeep(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return capEchoes(v);
  if (depth > 8 || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => capDeep(x, depth + 1));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [cut(k, ECHO_MAX), capDeep(x, depth + 1)]));
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly detail: Detail;
  readonly headers: Record<string, string>;
  /** Whether repeating the same call later may succeed (rate limits, transient faults). */
  readonly retryable: boolean;

  constructor(code: ErrorCode, detail: Detail, opts: { headers?: Record<string, string>; retryable?: boolean } = {}) {
    super(typeof detail === 'string' ? detail : code);
    this.name = 'AppError';
    this.code = code;
    this.status = STATUS[code];
    this.detail = detail;
    this.headers = opts.headers ?? {};
    this.retryable =
      opts.retryable ?? (code === 'APIKEY_RATE_LIMIT' || code === 'too_many_attempts' || code === 'internal');
  }

  /** The wire body. Every error response is built here, so this is where echoed input is capped. */
  body(): { detail: Detail } {
    return { detail: capDeep(this.detail) as Detail };
  }
}

/**
 * The level a refusal is logged at: `error` for Herald's own failures (an unexpected fault, `internal`), `warn` for
 * the expected ones a server answers with 5xx (a capability not configured, a network refusing or failing: 502,
 * 503), nothing for a client's mistake (4xx: the request log has its status).
 */
export function logLevelOf(err: AppError): 'error' | 'warn' | undefined {
  if (err.code === 'internal') return 'error';
  return err.status >= 500 ? 'warn' : undefined;
}

export const badRequest = (msg: string) => new AppError('bad_request', msg);
export const notFound = (msg: string) => new AppError('not_found', msg);
export const conflict = (msg: string) => new AppError('conflict', msg);
export const forbidden = (msg: string) => new AppError('forbidden', msg);
export const unauthorized = (msg = 'Not authenticated') =>
  new AppError('unauthorized', msg, { headers: { 'www-authenticate': 'Bearer' } });

export function validationError(errors: FieldError[]): AppError {
  return new AppError('validation', errors);
}

/** A single-field 422, e.g. validationField(['body', 'email'], 'value is not a valid email'). */
export function validationField(loc: (string | number)[], msg: string, type = 'value_error'): AppError {
  return validationError([{ loc, msg, type }]);
}

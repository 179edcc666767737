// A tool's refusal as every surface reports it: the one line a model reads, and the in-band failure beside it. MCP
// sends the line as the text of an error result, GPT Actions and the agent the whole failure object. A module of its
// own (no transport, no SDK), so that the agent and the MCP server share it without loading each other.
import type { AppError, FieldError } from '../errors.ts';

/** A failure the model should read: HTTP 200 on GPT Actions, an error result on MCP, a tool result for the agent. */
export type ToolFailure = {
  success: false;
  /** One sentence, never a nested structure. */
  message: string;
  /** The error code (bad_request, scope_denied, plan_required, validation_error, internal, …). */
  error: string;
  /** The argument a refusal is about, when the service names it. */
  field?: string;
  /** Present when repeating the same call later may succeed. */
  retryable?: true;
};

/** A field's location as a model knows it: the argument's path, without where REST would read it (body, query). */
const fieldName = (loc: FieldError['loc']) => (loc[0] === 'body' || loc[0] === 'query' ? loc.slice(1) : loc).join('.') || 'arguments';

/**
 * An AppError as the one line a model reads. The detail is the wire body's (echoed input capped as on every error
 * response); field errors read "argument: message"; a plan gate reads "Plan upgrade required for: <feature>".
 */
export function errorMessage(err: AppError): string {
  const d = err.body().detail;
  if (typeof d === 'string') return d;
  if (Array.isArray(d)) return d.map((e) => `${fieldName(e.loc)}: ${e.msg}`).join('; ');
  if (typeof d.message === 'string') return d.message;
  if (err.code === 'plan_required' && typeof d.feature === 'string') return `Plan upgrade required for: ${d.feature}`;
  if (typeof d.detail === 'string') return d.detail;
  return JSON.stringify(d);
}

/** An AppError as an in-band failure. */
export function failureOf(err: AppError): ToolFailure {
  const d = err.detail;
  const field = !Array.isArray(d) && typeof d === 'object' && typeof d.field === 'string' ? { field: d.field } : {};
  return { success: false, message: errorMessage(err), error: err.code, ...field, ...(err.retryable ? { retryable: true as const } : {}) };
}

// A tool's refusal as every surface reports it: the one line a model reads, and the in-band failure beside it. MCP
// sends the line as the text of an error result, GPT Actions and the agent the whole failure object. A module of its
// own (no transport, no SDK), so that the agent and the MCP server share it without loading each other.
import { capEchoes, type AppError, type FieldError } from '../errors.ts';

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
const fieldName = (loc: FieldError['loc']) =>
  (loc[0] === 'body' || loc[0] === 'query' ? loc.slice(1) : loc).join('.') || 'arguments';

/**
 * An AppError as the one line a model reads. Built from the wire body, so what the caller sent is echoed as REST
 * echoes it: at most 100 characters (capEchoes). Field errors read "argument: message"; a plan gate reads
 * "Plan upgrade required for: <feature>".
 */
export function errorText(err: AppError): string {
  const d = err.body().detail;
  if (typeof d === 'string') return d;
  if (Array.isArray(d)) return capEchoes(d.map((e) => `${fieldName(e.loc)}: ${e.msg}`).join('; '));
  if (typeof d.message === 'string') return capEchoes(d.message);
  if (err.code === 'plan_required' && typeof d.feature === 'string') return `Plan upgrade required for: ${d.feature}`;
  return capEchoes(typeof d.detail === 'string' ? d.detail : JSON.stringify(d));
}

/** A tool's own refusals before it runs (an unknown name, arguments its schema refuses), capped the same way. */
export const unknownToolText = (name: string) => capEchoes(`Unknown tool: '${name}'`);
export const invalidArgumentsText = (name: string, issues: string) =>
  capEchoes(`Invalid arguments for ${name}: ${issues}`);

/** An AppError as an in-band failure. */
export function failureOf(err: AppError): ToolFailure {
  const d = err.detail;
  const field = !Array.isArray(d) && typeof d === 'object' && typeof d.field === 'string' ? { field: d.field } : {};
  return {
    success: false,
    message: errorText(err),
    error: err.code,
    ...field,
    ...(err.retryable ? { retryable: true as const } : {}),
  };
}

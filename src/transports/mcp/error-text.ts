// A tool's AppError as the one line a model reads, shared by the MCP server and the agent; a module of its own so
// that the agent does not load the MCP SDK with server.ts (docs/performance.md).
import { capEchoes, type AppError, type FieldError } from '../../errors.ts';
import { planUpgrade } from './auth.ts';

const fieldErrors = (errors: FieldError[]) => errors.map((e) => `${e.loc.join('.')}: ${e.msg}`).join('; ');

/**
 * An AppError as the one line a model reads (plan gates in the documented wording). Built from the wire body, so
 * what the caller sent is echoed as REST and the GPT Actions echo it: at most 100 characters (capEchoes).
 */
export function errorText(err: AppError): string {
  const d = err.body().detail;
  if (typeof d === 'string') return d;
  if (Array.isArray(d)) return capEchoes(fieldErrors(d));
  if (err.code === 'plan_required' && typeof d.feature === 'string') return planUpgrade(d.feature);
  return capEchoes(typeof d.message === 'string' ? d.message : JSON.stringify(d));
}

/** A tool's own refusals before it runs (an unknown name, arguments its schema refuses), capped the same way. */
export const unknownToolText = (name: string) => capEchoes(`Unknown tool: '${name}'`);
export const invalidArgumentsText = (name: string, issues: string) => capEchoes(`Invalid arguments for ${name}: ${issues}`);

// A tool's AppError as the one line a model reads, shared by the MCP server and the agent; a module of its own so
// that the agent does not load the MCP SDK with server.ts (docs/performance.md).
import type { AppError, FieldError } from '../../errors.ts';
import { planUpgrade } from './auth.ts';

const fieldErrors = (errors: FieldError[]) => errors.map((e) => `${e.loc.join('.')}: ${e.msg}`).join('; ');

/** An AppError as the one line a model reads (plan gates in the documented wording). */
export function errorText(err: AppError): string {
  const d = err.detail;
  if (typeof d === 'string') return d;
  if (Array.isArray(d)) return fieldErrors(d);
  if (err.code === 'plan_required' && typeof d.feature === 'string') return planUpgrade(d.feature);
  return typeof d.message === 'string' ? d.message : JSON.stringify(d);
}

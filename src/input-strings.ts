// Strings Herald cannot store: NUL (PostgreSQL text cannot hold U+0000, jsonb refuses \u0000) and
// unpaired UTF-16 surrogates (not Unicode; jsonb refuses them, UTF-8 encoding would silently replace
// them). Every request input is checked once for them before validation (rest/app.ts, media/form.ts),
// so no route can pass one on to the database.
import { validationError, type FieldError } from './errors.ts';

const NUL = '\u0000';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// Enough to tell the client what to fix; a hostile body cannot make the answer large.
const MAX_ERRORS = 20;
/** The deepest nesting of objects and arrays a JSON body may have (deeper is refused when it is parsed). */
export const JSON_MAX_DEPTH = 64;

function problem(s: string): FieldError | undefined {
  if (s.includes(NUL)) return { loc: [], msg: 'Text must not contain the NUL character (U+0000).', type: 'string_nul' };
  if (LONE_SURROGATE.test(s))
    return { loc: [], msg: 'Text must be valid Unicode: it contains an unpaired surrogate.', type: 'string_unicode' };
  return undefined;
}

/** Field errors for every unusable string (values and object keys) in `value`, located under `loc`. */
export function invalidStrings(value: unknown, loc: (string | number)[]): FieldError[] {
  const out: FieldError[] = [];
  // Depth first with a stack of its own (no recursion, whatever the nesting), children in document order.
  const stack: [unknown, (string | number)[], number][] = [[value, loc, 0]];
  while (stack.length && out.length < MAX_ERRORS) {
    const [v, at, depth] = stack.pop()!;
    if (depth > JSON_MAX_DEPTH) continue;
    if (typeof v === 'string') {
      const p = problem(v);
      if (p) out.push({ ...p, loc: at });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], [...at, i], depth + 1]);
    } else if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) {
      const children: [unknown, (string | number)[], number][] = [];
      for (const [k, item] of Object.entries(v)) {
        const p = problem(k);
        // A bad key cannot be echoed in `loc` as it is; the location names its parent.
        if (p) out.push({ ...p, loc: at, msg: `Field names: ${p.msg}` });
        else children.push([item, [...at, k], depth + 1]);
      }
      stack.push(...children.reverse());
    }
  }
  return out.slice(0, MAX_ERRORS);
}

/** Throws a 422 naming every unusable string in `value`. */
export function assertUsableStrings(value: unknown, loc: (string | number)[]): void {
  const errors = invalidStrings(value, loc);
  if (errors.length) throw validationError(errors);
}

// Strings Herald cannot store: NUL (PostgreSQL text cannot hold U+0000, jsonb refuses \u0000) and
// unpaired UTF-16 surrogates (not Unicode; jsonb refuses them, UTF-8 encoding would silently replace
// them). Every request input is checked once for them before validation (rest/app.ts, media/form.ts),
// so no route can pass one on to the database.
import { validationError, type FieldError } from './errors.ts';

const NUL = '\u0000';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// Enough to tell the client what to fix; a hostile body cannot make the answer large.
const MAX_ERRORS = 20;
const MAX_DEPTH = 64;

function problem(s: string): FieldError | undefined {
  if (s.includes(NUL)) return { loc: [], msg: 'Text must not contain the NUL character (U+0000).', type: 'string_nul' };
  if (LONE_SURROGATE.test(s)) return { loc: [], msg: 'Text must be valid Unicode: it contains an unpaired surrogate.', type: 'string_unicode' };
  return undefined;
}

/** Field errors for every unusable string (values and object keys) in `value`, located under `loc`. */
export function invalidStrings(value: unknown, loc: (string | number)[]): FieldError[] {
  const out: FieldError[] = [];
  const walk = (v: unknown, at: (string | number)[], depth: number) => {
    if (out.length >= MAX_ERRORS || depth > MAX_DEPTH) return;
    if (typeof v === 'string') {
      const p = problem(v);
      if (p) out.push({ ...p, loc: at });
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, [...at, i], depth + 1));
    } else if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [k, item] of Object.entries(v)) {
        const p = problem(k);
        // A bad key cannot be echoed in `loc` as it is; the location names its parent.
        if (p) out.push({ ...p, loc: at, msg: `Field names: ${p.msg}` });
        else walk(item, [...at, k], depth + 1);
      }
    }
  };
  walk(value, loc, 0);
  return out;
}

/** Throws a 422 naming every unusable string in `value`. */
export function assertUsableStrings(value: unknown, loc: (string | number)[]): void {
  const errors = invalidStrings(value, loc);
  if (errors.length) throw validationError(errors);
}

// Bodies whose post type is known only at run time (drafts, scheduled posts) and edits of stored
// bodies, parsed with the post routes' own schemas. Unknown keys are dropped, as on the post routes
// (docs/decisions.md); what cannot apply to a stored body is refused rather than dropped.
import type { z } from 'zod';
import { AppError, type FieldError } from '../errors.ts';
import type { PostType } from '../platforms/publishing.ts';
import type { NetworkContract } from '../platforms/contract.ts';
import type { FieldPath } from './plan.ts';
import { postBodies, type PostBody } from './schemas.ts';

/** The slugs whose override objects a body may carry. */
export const overrideKeys = (networks: readonly NetworkContract[]): string[] =>
  networks.filter((n) => n.override).map((n) => n.slug);

type Obj = Record<string, unknown>;

function fieldErrors(issues: z.core.$ZodIssue[], at: FieldPath): FieldError[] {
  return issues.map((i) => ({
    loc: [...at, ...i.path.map((x) => (typeof x === 'number' ? x : String(x)))],
    msg: i.message,
    type: i.code,
  }));
}

/** The body as the post route of `postType` takes it, or a field-level 422 at `at`. */
export function parsePostBody(
  networks: readonly NetworkContract[],
  postType: PostType,
  raw: unknown,
  at: FieldPath = ['body'],
): PostBody {
  const parsed = postBodies(networks)[postType].safeParse(raw);
  if (!parsed.success) throw new AppError('validation', fieldErrors(parsed.error.issues, at));
  return parsed.data as PostBody;
}

export interface EditRules {
  /** The one network the stored body is for: other networks' overrides cannot apply. */
  platform: string;
  /** What the stored body is, for messages ("draft", "scheduled post"). */
  what: string;
  /** Body fields an edit may not set (at the top or in the network's override), with the reason. */
  refused: Readonly<Record<string, string>>;
}

/** A key as it may be echoed in a message: client keys can be arbitrarily long. */
const shown = (k: string) => JSON.stringify(k.length > 40 ? `${k.slice(0, 40)}…` : k);

/**
 * An edit of a stored body, parsed with the (partial) schema of its post type. Unknown keys are
 * dropped; an override left empty by that changes nothing (it would otherwise clear the stored one).
 * Returns the edit and the top-level keys that were dropped; an empty edit is for the caller to refuse.
 */
export function parseEdit(
  networks: readonly NetworkContract[],
  postType: PostType,
  raw: Obj,
  rules: EditRules,
  at: FieldPath,
): { edit: Obj; ignored: string[] } {
  const keys = overrideKeys(networks);
  const errors: FieldError[] = [];
  const own = raw[rules.platform];
  for (const [key, why] of Object.entries(rules.refused)) {
    if (key in raw) errors.push({ loc: [...at, key], msg: why, type: 'value_error' });
    if (own && typeof own === 'object' && key in own)
      errors.push({ loc: [...at, rules.platform, key], msg: why, type: 'value_error' });
  }
  for (const key of keys) {
    if (key !== rules.platform && key in raw)
      errors.push({
        loc: [...at, key],
        msg: `This ${rules.what} is for ${rules.platform}: the ${key} override does not apply to it.`,
        type: 'value_error',
      });
  }
  if (errors.length) throw new AppError('validation', errors);
  const schema = postBodies(networks)[postType].partial();
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new AppError('validation', fieldErrors(parsed.error.issues, at));
  const edit: Obj = { ...parsed.data };
  for (const key of keys) {
    const o = edit[key];
    if (o && typeof o === 'object' && !Object.keys(o).length) delete edit[key];
  }
  const ignored = Object.keys(raw).filter((k) => !(k in schema.shape));
  return { edit, ignored };
}

/** The 422 for an edit that names nothing Herald understands, at `loc`. */
export function nothingToUpdate(loc: FieldPath, expected: string, ignored: string[]): AppError {
  const dropped = ignored.length
    ? ` Unknown fields are ignored: ${ignored.slice(0, 5).map(shown).join(', ')}${ignored.length > 5 ? ', …' : ''}.`
    : '';
  return new AppError('validation', [
    { loc, msg: `Nothing to update: send ${expected}.${dropped}`, type: 'value_error' },
  ]);
}

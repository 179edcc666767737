// The columns of a bulk import file: a fixed set, plus one per network text field of the registry (`linkedin_text`,
// `youtube_title`…), derived from each network's override schema so a new network brings its own columns, and a
// `<network>_first_comment` for each network that takes a first comment.
import { z } from 'zod';
import type { Networks } from '../../platforms/registry.ts';
import type { Platform } from '../../platforms/slugs.ts';

/** The columns every file may have, in the order an export writes them. */
export const BASE_COLUMNS = ['text', 'networks', 'time', 'queue', 'media_urls', 'draft', 'first_comment'] as const;

/**
 * A per-network column: the override field it fills (`linkedin_text` → body.linkedin.linkedin_text,
 * `linkedin_first_comment` → body.linkedin.first_comment).
 */
export interface OverrideColumn {
  platform: Platform;
  field: string;
}

const isText = (t: unknown): boolean => {
  let s = t;
  while (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap();
  return s instanceof z.ZodString || (s instanceof z.ZodPipe && isText(s.in));
};

const built = new WeakMap<object, Map<string, OverrideColumn>>();

/**
 * Override columns by name: every text field of a network's override named after the network (`<slug>_…`), and the
 * network's own first comment (`<slug>_first_comment`) where its contract takes one. Built once per registry.
 */
export function overrideColumns(networks: Pick<Networks, 'networks'>): Map<string, OverrideColumn> {
  const known = built.get(networks.networks);
  if (known) return known;
  const out = new Map<string, OverrideColumn>();
  for (const n of networks.networks) {
    if (!n.override) continue;
    for (const [field, schema] of Object.entries(n.override.shape)) {
      if (field.startsWith(`${n.slug}_`) && isText(schema)) out.set(field, { platform: n.slug, field });
    }
    if (n.firstComment) out.set(`${n.slug}_first_comment`, { platform: n.slug, field: 'first_comment' });
  }
  built.set(networks.networks, out);
  return out;
}

/** Every column a file may have, base columns first. */
export function allColumns(networks: Pick<Networks, 'networks'>): string[] {
  return [...BASE_COLUMNS, ...overrideColumns(networks).keys()];
}

/** A cell of network slugs separated by commas and/or blanks → the slugs (lower case, no blanks). */
export const splitList = (cell: string): string[] =>
  cell
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A spreadsheet would run a cell starting with = + - @ (or a tab or carriage return) as a formula: an export prefixes
 * such a cell with a single quote (OWASP's advice on CSV injection), and an import removes exactly that quote again,
 * so a round trip keeps the text as it was.
 */
export const escapeFormula = (cell: string): string => (FORMULA_START.test(cell) ? `'${cell}` : cell);
export const unescapeFormula = (cell: string): string =>
  cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;

// The networks' names for people and models, from their contracts: a slug's display name, the names people type
// for it, and a list of the networks as text (tool descriptions, messages).
import type { NetworkContract } from './contract.ts';

/** "a, b or c" (or "and"). */
export function listText(items: readonly string[], conjunction: 'or' | 'and' = 'or'): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`;
}

/** The networks' slugs as text: "linkedin, instagram, … or bluesky". */
export const slugList = (networks: readonly NetworkContract[], conjunction: 'or' | 'and' = 'or'): string =>
  listText(
    networks.map((n) => n.slug),
    conjunction,
  );

/** A JSON list of the first two networks' slugs, for examples in descriptions: ["linkedin","instagram"]. */
export const exampleSlugs = (networks: readonly NetworkContract[]): string =>
  JSON.stringify(networks.slice(0, 2).map((n) => n.slug));

/**
 * An example text with `{1}`, `{2}`, … standing for the registry's first, second, … network (counted round when there
 * are fewer), so help texts name real networks without writing any down: "to {1}, {8}" → "to linkedin, bluesky".
 */
export const withExampleNetworks = (text: string, slugs: readonly string[]): string =>
  text.replace(/\{(\d)\}/g, (_, i: string) => slugs[(Number(i) - 1) % slugs.length] ?? '');

/**
 * An override object for the first two networks, each with the first field of its override schema, for examples in
 * descriptions and messages: {"<a>":{"<a>_text":"…"},"<b>":{…}}.
 */
export const exampleOverrides = (networks: readonly NetworkContract[]): string =>
  JSON.stringify(
    Object.fromEntries(
      networks.slice(0, 2).map((n) => {
        const field = Object.keys(n.override?.shape ?? {})[0];
        return [n.slug, field ? { [field]: '…' } : {}];
      }),
    ),
  );

/** How people name the networks: single words by slug, and patterns that join a name typed in words ("linked in"). */
export interface NetworkVocabulary {
  /** A word (lower case) → the slug it names. */
  words: ReadonlyMap<string, string>;
  /** Names in several words → the slug that replaces them in a text (lower case). */
  phrases: readonly (readonly [RegExp, string])[];
  /** The display name of a slug (the slug itself when no network has it). */
  name(slug: string): string;
  /** Every network's display name, in registration order. */
  names: readonly string[];
  /** Every network's slug, in registration order. */
  slugs: readonly string[];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const made = new WeakMap<readonly NetworkContract[], NetworkVocabulary>();

/** The vocabulary of a list of networks: slug, display name and contract aliases of each. */
export function vocabulary(networks: readonly NetworkContract[]): NetworkVocabulary {
  const known = made.get(networks);
  if (known) return known;
  const words = new Map<string, string>();
  const phrases: [RegExp, string][] = [];
  for (const n of networks) {
    for (const raw of [n.slug, n.displayName, ...(n.aliases ?? [])]) {
      const parts = raw
        .normalize('NFKC')
        .toLowerCase()
        .split(/[\s-]+/)
        .filter(Boolean);
      if (parts.length === 1) words.set(parts[0]!, n.slug);
      else if (parts.length > 1)
        phrases.push([new RegExp(`\\b${parts.map(escapeRegExp).join('[\\s-]+')}\\b`, 'g'), n.slug]);
    }
  }
  const display = new Map(networks.map((n) => [n.slug as string, n.displayName]));
  const v: NetworkVocabulary = {
    words,
    phrases,
    name: (slug) => display.get(slug) ?? slug,
    names: networks.map((n) => n.displayName),
    slugs: networks.map((n) => n.slug),
  };
  made.set(networks, v);
  return v;
}

// The words of a direct command (agent/commands.ts): network names and aliases, lists of networks, and the examples
// filled with the registry's networks.
import { withExampleNetworks, type NetworkVocabulary } from '../platforms/naming.ts';

/** Networks Herald does not publish to, named so the answer can say so instead of ignoring them. */
const ELSEWHERE: Readonly<Record<string, string>> = {
  x: 'X',
  twitter: 'X (Twitter)',
  tweet: 'X (Twitter)',
  mastodon: 'Mastodon',
  reddit: 'Reddit',
  telegram: 'Telegram',
  whatsapp: 'WhatsApp',
};

export const lower = (s: string) => s.normalize('NFKC').toLowerCase();

/** The words of a text, lower case, with network names in several words joined ("linked in" → its slug). */
export function words(s: string, v: NetworkVocabulary): string[] {
  let t = lower(s).replace(/[\u2018\u2019]/g, "'");
  for (const [re, slug] of v.phrases) t = t.replace(re, slug);
  return t
    .split(/[^\p{L}\p{N}']+/u)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
}

export interface Networks {
  networks: string[];
  all: boolean;
  /** Words that are not networks (a typo, or a network Herald does not have). */
  unknown: string[];
}

const JOINERS = new Set([
  'and',
  'the',
  'my',
  'our',
  'both',
  'also',
  'plus',
  'networks',
  'network',
  'accounts',
  'account',
  'please',
  'thanks',
]);

/** A list of networks: "<a>, <b> and <c>" by name or alias, "all networks". */
export function networksOf(s: string, v: NetworkVocabulary): Networks {
  const out: Networks = { networks: [], all: false, unknown: [] };
  for (const w of words(s, v)) {
    if (JOINERS.has(w)) continue;
    const slug = v.words.get(w);
    if (w === 'all' || w === 'every' || w === 'everywhere') out.all = true;
    else if (slug) {
      if (!out.networks.includes(slug)) out.networks.push(slug);
    } else out.unknown.push(w);
  }
  return out;
}

export function unknownNetworks(n: Networks, v: NetworkVocabulary): string {
  const named = n.unknown.map((w) =>
    ELSEWHERE[w] ? `${ELSEWHERE[w]} is not a network Herald publishes to` : `'${w}' is not a network`,
  );
  return `${named.join('; ')}. Herald's networks: ${v.names.join(', ')}.`;
}

/** Fills an example text's `{n}` with the registry's n-th network. */
export const ex = (text: string, v: NetworkVocabulary) => withExampleNetworks(text, v.slugs);

// The direct commands that act (agent/commands.ts): `publish "…" to <networks>` and `generate copy for <networks>:
// <idea>`, parsed into a tool's arguments, a refusal that names what is wrong, or a hint for a message that only
// looks like one.
import type { NetworkVocabulary } from '../platforms/naming.ts';
import { ex, lower, networksOf, unknownNetworks } from './command-words.ts';

// ---- publish "…" to <networks> [as draft | at <time>] ----

const OPEN_CLOSE: Readonly<Record<string, string>> = {
  '"': '"”“',
  '“': '”"“',
  '„': '“”"',
  '«': '»',
  "'": "'’",
  '‘': "’'",
};
const ISO_TIME = /(\d{4}-\d{2}-\d{2})[t ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(z|utc|[+-]\d{2}:?\d{2})?/i;

/** A command to run, a refusal that names what is wrong with it, or a hint for a message that only looks like one. */
type PublishPlan = { args: Record<string, unknown> } | { refusal: string } | { hint: string };

const PUBLISH_USAGE =
  'To publish, put the text in quotes and name the networks: `publish "Our new oven is here" to {1}, {8}` (add `as draft` to save drafts, or `at 2026-12-01T09:00:00Z` to schedule).';

/** The tail after the quoted text: `to <networks>`, optionally `as draft`, `now`, or `at|on|for <ISO time>`. */
function publishTail(
  verb: string,
  tail: string,
  v: NetworkVocabulary,
): { args: Record<string, unknown> } | { refusal: string } | null {
  let t = lower(tail).trim();
  let time: string | undefined;
  const m = ISO_TIME.exec(t);
  if (m) {
    if (!m[3])
      return {
        refusal: `The time ${m[1]} ${m[2]} has no UTC offset: write it as ${m[1]}T${m[2]}Z or with its offset (e.g. +01:00).`,
      };
    const offset = m[3].toLowerCase() === 'utc' ? 'Z' : m[3].toUpperCase().replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
    time = `${m[1]}T${m[2]}${offset}`;
    if (Number.isNaN(Date.parse(time))) return { refusal: `${time} is not a valid time.` };
    // The preposition before the time goes with it: `at <time>` may stand before or after the networks.
    t = `${t.slice(0, m.index).replace(/\s*\b(?:at|on|for)\s*$/, '')} ${t.slice(m.index + m[0].length)}`.trim();
  }
  t = t.replace(/[.!]+$/, '').trim();
  let draft = verb === 'draft';
  const asDraft = /\s+as\s+(?:an?\s+)?drafts?$/;
  if (asDraft.test(t)) {
    draft = true;
    t = t.replace(asDraft, '').trim();
  }
  t = t.replace(/\s+(?:right\s+)?now$/, '').trim();
  const to = /^(?:to|on|for|in)\s+(.+)$/.exec(t);
  if (!to) return null;
  const n = networksOf(to[1]!, v);
  if (n.unknown.length) return { refusal: `Nothing was published: ${unknownNetworks(n, v)}` };
  if (n.all || !n.networks.length)
    return {
      refusal: ex(
        'Nothing was published: name the networks one by one (e.g. `to {1}, {8}`); I do not publish "everywhere".',
        v,
      ),
    };
  if (verb === 'schedule' && !time)
    return { refusal: ex('To schedule, give the time: `schedule "…" on {1} at 2026-12-01T09:00:00Z`.', v) };
  if (draft && time) return { refusal: 'Either save drafts or schedule, not both.' };
  const args: Record<string, unknown> = { platforms: n.networks };
  if (draft) args.draft = true;
  if (time) args.scheduled_time = time;
  return { args };
}

/** `publish|post|share|draft|schedule "text" to …`, or null when the text is not such a command at all. */
export function publishCommand(text: string, v: NetworkVocabulary): PublishPlan | null {
  const head = /^\s*(?:please\s+)?(publish|post|share|draft|schedule)\b\s*(?:this\s*)?:?\s*/i.exec(text);
  if (!head) return null;
  const verb = head[1]!.toLowerCase();
  const rest = text.slice(head[0].length);
  const opener = rest[0] ?? '';
  const closers = OPEN_CLOSE[opener];
  // "Draft three posts from this video…" is a request for a model, not a command: answered as such, with the syntax.
  if (!closers) return { hint: ex(PUBLISH_USAGE, v) };
  // The last closing quote whose tail reads as a command ends the text: quotes inside the post text are kept.
  for (let i = rest.length - 1; i > 0; i--) {
    if (!closers.includes(rest[i]!)) continue;
    const body = rest.slice(1, i).trim();
    const plan = publishTail(verb === 'share' || verb === 'post' ? 'publish' : verb, rest.slice(i + 1), v);
    if (!plan) continue;
    if (!body) return { refusal: 'The post text is empty.' };
    if ('refusal' in plan) return plan;
    return { args: { ...plan.args, default_text: body } };
  }
  return { refusal: ex(PUBLISH_USAGE, v) };
}

// ---- generate copy for <networks>: <idea> ----

const GENERATE =
  /^\s*(?:please\s+)?(?:generate|write|create|make)\s+(?:(?:some|a|an|the|me)\s+)*(?:copy|posts?|captions?|texts?)\s+(?:for|on)\s+([^:]+?)\s*(?::|\babout\b|—|–)\s*(.+)$/is;
const GENERATE_USAGE =
  'To generate copy, name the networks and the idea after a colon: `generate copy for {1}, {4}: our second oven opens on Saturday`.';

export function generateCommand(
  text: string,
  v: NetworkVocabulary,
): { args: Record<string, unknown> } | { refusal: string } | { hint: string } | null {
  if (!/^\s*(?:please\s+)?(?:generate|write|create|make)\b/i.test(text) && !GENERATE.test(text)) return null;
  const m = GENERATE.exec(text);
  if (!m) return { hint: ex(GENERATE_USAGE, v) };
  const n = networksOf(m[1]!, v);
  if (n.unknown.length) return { refusal: `No copy was generated: ${unknownNetworks(n, v)}` };
  if (!n.all && !n.networks.length) return { refusal: ex(GENERATE_USAGE, v) };
  const idea = m[2]!
    .trim()
    .replace(/^["“„«'‘](.*)["”“»'’]$/s, '$1')
    .trim();
  if (!idea) return { refusal: ex(GENERATE_USAGE, v) };
  return { args: { platforms: n.all ? 'all' : n.networks, idea } };
}

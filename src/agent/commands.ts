// The workspace agent without a model (the built-in provider): a fixed, documented set of direct commands, understood
// deterministically and run through the same tools as the model's loop (so key scopes, plans, credits and the
// approval setting apply). Anything else is answered plainly: a model must be configured for free-form requests.
// Publishing needs its text in quotes and named networks: nothing that acts is ever guessed from vague words.
// docs/agent.md "Without a model: direct commands" lists the commands; keep it and COMMANDS in step.
import type { NetworkContract } from '../platforms/contract.ts';
import { vocabulary, withExampleNetworks, type NetworkVocabulary } from '../platforms/naming.ts';
import type { ToolResult } from '../tools/tool.ts';
import type { AgentAnswer, AgentToolCall, InvokeTool } from './answer.ts';
import * as fmt from './command-format.ts';

/**
 * The commands, as the help answer and docs/agent.md list them: [what to type, what it does]. `{n}` is the registry's
 * n-th network (withExampleNetworks): commandsFor fills them in.
 */
const COMMANDS: readonly (readonly [string, string])[] = [
  ['help', 'this list'],
  ['list accounts', 'the connected social accounts'],
  ['list queued posts', 'scheduled posts and drafts (also: `list scheduled posts`, `list drafts`, `… on {1}`)'],
  [
    'publish "Text of the post" to {1}, {8}',
    'publish now (add `as draft` to save drafts, or `at 2026-12-01T09:00:00Z` to schedule)',
  ],
  ['schedule "Text of the post" on {4} at 2026-12-01T09:00:00+01:00', 'schedule (an ISO 8601 time with its offset)'],
  [
    'generate copy for {1}, {4}: the idea',
    'post copy per network from an idea (2 AI credits per network; never publishes)',
  ],
  ['show comments', 'comments on the recent posts (also: `show comments on {2}`)'],
  ['show analytics', 'likes, comments and reach per network (also: `show analytics for {8}`)'],
];

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

const MODEL_NEEDED =
  'No AI model is configured on this Herald, so I cannot understand free-form requests: I run only the direct commands below. ' +
  'To chat in plain language, the operator sets `HERALD_AI_PROVIDER` (`openai`, `anthropic`, `google` or `openai-compatible`), ' +
  '`HERALD_AI_MODEL` and `HERALD_AI_API_KEY` (or `HERALD_AI_BASE_URL` for a local model server) and restarts Herald: see docs/agent.md.';

const lower = (s: string) => s.normalize('NFKC').toLowerCase();

/** The words of a text, lower case, with network names in several words joined ("linked in" → its slug). */
function words(s: string, v: NetworkVocabulary): string[] {
  let t = lower(s).replace(/[\u2018\u2019]/g, "'");
  for (const [re, slug] of v.phrases) t = t.replace(re, slug);
  return t
    .split(/[^\p{L}\p{N}']+/u)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
}

interface Networks {
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
function networksOf(s: string, v: NetworkVocabulary): Networks {
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

function unknownNetworks(n: Networks, v: NetworkVocabulary): string {
  const named = n.unknown.map((w) =>
    ELSEWHERE[w] ? `${ELSEWHERE[w]} is not a network Herald publishes to` : `'${w}' is not a network`,
  );
  return `${named.join('; ')}. Herald's networks: ${v.names.join(', ')}.`;
}

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
function publishCommand(text: string, v: NetworkVocabulary): PublishPlan | null {
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

function generateCommand(
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

// ---- the listing commands: words around them are tolerated, nothing else ----

const FILLER = new Set([
  'please',
  'pls',
  'can',
  'could',
  'would',
  'you',
  'me',
  'my',
  'our',
  'the',
  'all',
  'list',
  'show',
  'get',
  'give',
  'see',
  'view',
  'what',
  'which',
  'are',
  'is',
  'do',
  'i',
  'we',
  'have',
  'of',
  'thanks',
  'thank',
  'hi',
  'hello',
  'hey',
  'herald',
  'connected',
  'current',
  'now',
  'posts',
  'post',
  'latest',
  'recent',
  'on',
  'for',
  'in',
  'and',
  'to',
  'a',
  'an',
]);

type Listing =
  | { tool: string; args: Record<string, unknown>; what: string; format: fmt.Format }
  | { help: true }
  | { refusal: string };

function listingCommand(text: string, v: NetworkVocabulary): Listing | null {
  const all = words(text, v);
  const rest = all.filter((w) => !FILLER.has(w));
  const nets = rest.flatMap((w) => v.words.get(w) ?? []);
  const kinds = new Set(rest.filter((w) => !v.words.has(w)));
  if (!kinds.size && !nets.length) return { help: true };
  const only = (...allowed: string[]) => kinds.size > 0 && [...kinds].every((k) => allowed.includes(k));
  const platforms = [...new Set(nets)];
  if (only('help', 'commands', 'command', 'usage')) return { help: true };
  if (only('accounts', 'account', 'profiles', 'profile', 'connections', 'networks')) {
    return {
      tool: 'get_accounts',
      args: platforms.length === 1 ? { platform: platforms[0] } : {},
      what: 'list the accounts',
      format: fmt.accounts,
    };
  }
  if (only('queue', 'queued', 'upcoming', 'planned', 'pending', 'scheduled', 'drafts', 'draft')) {
    if (platforms.length > 1)
      return {
        refusal: ex('Name one network at a time for the queue (e.g. `list queued posts on {1}`), or none for all.', v),
      };
    const scheduled = kinds.has('scheduled');
    const drafts = kinds.has('drafts') || kinds.has('draft');
    const queued = [...kinds].some((k) => ['queue', 'queued', 'upcoming', 'planned', 'pending'].includes(k));
    const type = queued || (scheduled && drafts) ? 'all' : scheduled ? 'scheduled' : 'draft';
    return {
      tool: 'get_queued_posts',
      args: { type, ...(platforms.length ? { platform: platforms[0] } : {}) },
      what: 'list the queued posts',
      format: fmt.queue,
    };
  }
  if (only('comments', 'comment', 'inbox'))
    return {
      tool: 'get_comments',
      args: platforms.length ? { platforms } : {},
      what: 'read the comments',
      format: fmt.comments,
    };
  if (only('analytics', 'stats', 'statistics', 'metrics', 'performance', 'insights')) {
    return {
      tool: 'get_unified_analytics',
      args: platforms.length ? { platforms } : {},
      what: 'read the analytics',
      format: fmt.analytics,
    };
  }
  return null;
}

// ---- answering ----

function answerOf(response: string, tables: string[] = []): AgentAnswer {
  return {
    response,
    tables_markdown: tables.join('\n\n'),
    charts_markdown: '',
    mermaid_diagrams: [],
    image_urls: [],
    video_urls: [],
    append_footer: false,
  };
}

/** Fills an example text's `{n}` with the registry's n-th network. */
const ex = (text: string, v: NetworkVocabulary) => withExampleNetworks(text, v.slugs);

/** The direct commands with this registry's networks in their examples, as help and docs/agent.md list them. */
export const commandsFor = (networks: readonly NetworkContract[]): (readonly [string, string])[] => {
  const v = vocabulary(networks);
  return COMMANDS.map(([cmd, what]) => [ex(cmd, v), ex(what, v)] as const);
};

export function commandList(networks: readonly NetworkContract[]): string {
  return commandsFor(networks)
    .map(([cmd, what]) => `- \`${cmd}\` — ${what}`)
    .join('\n');
}

const helpAnswer = (networks: readonly NetworkContract[]) =>
  answerOf(
    `Without an AI model, I run these direct commands:\n\n${commandList(networks)}\n\nQuotes may be straight or curly; case does not matter.`,
  );
const notUnderstood = (networks: readonly NetworkContract[], hint?: string) =>
  answerOf(`${MODEL_NEEDED}\n\n${hint ? `${hint}\n\n` : ''}${commandList(networks)}`);

/** A tool's failure as the tool reports it; a thrown error (an invoke without in-band errors) in safe words. */
function thrownResult(err: unknown): ToolResult {
  const e = err as { detail?: unknown; message?: unknown; status?: number };
  const detail =
    typeof e?.detail === 'string'
      ? e.detail
      : typeof (e?.detail as { message?: unknown })?.message === 'string'
        ? String((e.detail as { message: string }).message)
        : null;
  const safe = detail !== null && (e.status === undefined || e.status < 500);
  return { success: false, message: safe ? detail : 'The tool failed unexpectedly.', error: 'tool_failed' };
}

/**
 * Answers a member's message without a model: one of COMMANDS, run through `invoke` (the same tool checks as the
 * model's loop), or a plain answer that a model must be configured. `toolNames` are the tools this caller may use;
 * `networks` the registry's networks, whose names and aliases the commands understand.
 */
export async function directCommand(
  text: string,
  invoke: InvokeTool,
  toolNames: readonly string[],
  networks: readonly NetworkContract[],
): Promise<{ answer: AgentAnswer; calls: AgentToolCall[] }> {
  const calls: AgentToolCall[] = [];
  const v = vocabulary(networks);
  const run = async (name: string, args: Record<string, unknown>, what: string, format: fmt.Format, intro = '') => {
    if (!toolNames.includes(name))
      return answerOf(`I cannot ${what} here: the tool \`${name}\` is not available to this caller.`);
    let result: ToolResult;
    try {
      result = await invoke(name, args);
    } catch (err) {
      result = thrownResult(err);
    }
    calls.push({ name, args, result });
    const out = result.success === false && name !== 'publish' ? fmt.failed(what, result) : format(result, v.name);
    return answerOf(intro ? `${intro}\n\n${out.text}` : out.text, out.tables);
  };
  const message = text.trim();
  if (!message) return { answer: helpAnswer(networks), calls };

  const pub = publishCommand(message, v);
  if (pub && 'hint' in pub) return { answer: notUnderstood(networks, pub.hint), calls };
  if (pub) {
    if ('refusal' in pub) return { answer: answerOf(pub.refusal), calls };
    const answer = await run('publish', pub.args, 'publish', (r, name) =>
      r.success === false && !Array.isArray(r.results) && !r.post ? fmt.failed('publish', r) : fmt.published(r, name),
    );
    return { answer, calls };
  }
  const gen = generateCommand(message, v);
  if (gen && 'hint' in gen) return { answer: notUnderstood(networks, gen.hint), calls };
  if (gen) {
    if ('refusal' in gen) return { answer: answerOf(gen.refusal), calls };
    return { answer: await run('idea_to_content', gen.args, 'generate copy', fmt.copy), calls };
  }
  const listing = listingCommand(message, v);
  if (listing && 'help' in listing) return { answer: helpAnswer(networks), calls };
  if (listing && 'refusal' in listing) return { answer: answerOf(listing.refusal), calls };
  if (listing) return { answer: await run(listing.tool, listing.args, listing.what, listing.format), calls };
  return { answer: notUnderstood(networks), calls };
}

// The workspace agent without a model (the built-in provider): a fixed, documented set of direct commands, understood
// deterministically and run through the same tools as the model's loop (so key scopes, plans, credits and the
// approval setting apply). Anything else is answered plainly: a model must be configured for free-form requests.
// Publishing needs its text in quotes and named networks: nothing that acts is ever guessed from vague words.
// docs/agent.md "Without a model: direct commands" lists the commands; keep it and COMMANDS in step.
import type { NetworkContract } from '../platforms/contract.ts';
import { vocabulary } from '../platforms/naming.ts';
import type { ToolResult } from '../tools/tool.ts';
import type { AgentAnswer, AgentToolCall, InvokeTool } from './answer.ts';
import * as fmt from './command-format.ts';
import { listingCommand } from './command-listing.ts';
import { generateCommand, publishCommand } from './command-parsers.ts';
import { ex } from './command-words.ts';

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

const MODEL_NEEDED =
  'No AI model is configured on this Herald, so I cannot understand free-form requests: I run only the direct commands below. ' +
  'To chat in plain language, the operator sets `HERALD_AI_PROVIDER` (`openai`, `anthropic`, `google` or `openai-compatible`), ' +
  '`HERALD_AI_MODEL` and `HERALD_AI_API_KEY` (or `HERALD_AI_BASE_URL` for a local model server) and restarts Herald: see docs/agent.md.';

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

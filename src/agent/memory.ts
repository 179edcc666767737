// The agent's memory of a workspace's conversation (docs/agent.md "Memory"): the recent turns as compact messages
// (the member's text, the agent's answer, one line per tool call with its result cut short), and a summary of older
// turns. It is measured in estimated tokens; over the budget, the oldest messages are folded into the summary by the
// model, or, when that fails, by cutting them down to their first lines.
import type { AgentToolCall } from './answer.ts';
import type { AgentMemory, MemoryMessage } from './history.ts';

/** A rough token count (about four characters a token in English): enough to keep memory within a budget. */
export const estimateTokens = (s: string): number => Math.ceil(s.length / 4);

export const memoryTokens = (m: AgentMemory): number =>
  estimateTokens(m.summary) + m.recent.reduce((n, x) => n + estimateTokens(x.content) + 4, 0);

/** At most `max` characters, with a mark where it was cut. */
export function cutTo(s: string, max: number): string {
  if (s.length <= max) return s;
  const end = /[\uD800-\uDBFF]/.test(s[max - 1] ?? '') ? max - 1 : max;
  return `${s.slice(0, end)}… [cut: ${s.length - end} more characters]`;
}

/**
 * Text from outside the member (tool results, media, pages, older conversation) inside a block the system prompt calls
 * data.
 */
export function dataBlock(source: string, body: string): string {
  // A body cannot end its own block early: a closing tag inside it is broken up.
  return `<data source="${source}">\n${body.replace(/<\/data/gi, '<\\/data')}\n</data>`;
}

/** One tool call in a line: name, arguments and the result, each cut short. */
export function toolLine(c: AgentToolCall, maxChars: number): string {
  const ok = c.result.success === false ? 'failed' : 'ok';
  return `- ${c.name}(${cutTo(JSON.stringify(c.args), 200)}) → ${ok}: ${cutTo(JSON.stringify(c.result), maxChars)}`;
}

/** Characters of a member's message or an answer kept in memory. */
const MESSAGE_CHARS = 4000;

/**
 * The turn as it goes into memory: the member's message (with notes on attached media) and the answer with its tool
 * calls.
 */
export function turnMessages(
  userText: string,
  answer: string,
  calls: readonly AgentToolCall[],
  toolResultChars: number,
): MemoryMessage[] {
  const tools = calls.length
    ? `${dataBlock('tool_results', calls.map((c) => toolLine(c, toolResultChars)).join('\n'))}\n`
    : '';
  return [
    { role: 'user', content: cutTo(userText, MESSAGE_CHARS) },
    { role: 'assistant', content: `${tools}${cutTo(answer, MESSAGE_CHARS)}` },
  ];
}

/** Writes a new summary from the previous one and the messages that leave the recent window. */
export type Summarise = (previous: string, leaving: readonly MemoryMessage[]) => Promise<string>;

/** The summary when the model cannot write one: the previous summary and the first line of each message leaving. */
export function plainSummary(previous: string, leaving: readonly MemoryMessage[]): string {
  const lines = leaving.map(
    (m) =>
      `${m.role === 'user' ? 'Member' : 'Agent'}: ${cutTo(
        m.content
          .replace(/<data[\s\S]*?<\/data>\s*/g, '')
          .split('\n')
          .find((l) => l.trim()) ?? '',
        200,
      )}`,
  );
  return [previous, ...lines].filter(Boolean).join('\n');
}

/**
 * Keeps memory within `budget` estimated tokens: when over it, the oldest recent messages (whole turns, never the
 * newest one) are folded into the summary until the recent window is at most half the budget; the summary itself is
 * kept to a quarter. Returns the memory unchanged when it fits.
 */
export async function fold(
  memory: AgentMemory,
  budget: number,
  summarise: Summarise,
): Promise<{ memory: AgentMemory; folded: number }> {
  if (memoryTokens(memory) <= budget) return { memory, folded: 0 };
  const recent = [...memory.recent];
  const leaving: MemoryMessage[] = [];
  const windowTokens = () => recent.reduce((n, x) => n + estimateTokens(x.content) + 4, 0);
  // Whole turns (a member's message and the answer) leave together; the newest turn always stays.
  while (recent.length > 2 && windowTokens() > budget / 2) leaving.push(...recent.splice(0, 2));
  let summary = memory.summary;
  if (leaving.length) {
    try {
      summary = (await summarise(memory.summary, leaving)).trim() || plainSummary(memory.summary, leaving);
    } catch {
      summary = plainSummary(memory.summary, leaving);
    }
  }
  const maxSummaryChars = Math.floor(budget / 4) * 4;
  if (summary.length > maxSummaryChars) summary = `…${summary.slice(summary.length - maxSummaryChars + 1)}`;
  return { memory: { summary, recent }, folded: leaving.length };
}

// Scripted models for the agent's tests (the AI SDK's MockLanguageModelV4): each test sets what the model answers
// per call and reads back every prompt it was given.
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import type { AiModels } from '../../src/ai/models.ts';
import type { Harness, TestUser } from '../helpers/harness.ts';

export type Prompt = { role: string; content: unknown }[];
type Result = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** The model's final answer. */
export const say = (text: string): Result => ({
  content: text ? [{ type: 'text', text }] : [],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage,
  warnings: [],
});

let callId = 0;
/** The model asks for tool calls, [name, args] each. */
export const use = (...calls: [string, Record<string, unknown>][]): Result => ({
  content: calls.map(([toolName, args]) => ({
    type: 'tool-call' as const,
    toolCallId: `call-${++callId}`,
    toolName,
    input: JSON.stringify(args),
  })),
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage,
  warnings: [],
});

/** Streamed only: the model writes `text`, then its stream breaks with an error part (a provider failing mid-answer). */
export const breakAfter = (text: string): Result => ({
  ...say(text),
  finishReason: { unified: 'error', raw: 'broken' },
});

/** A scripted answer as the parts a streaming provider sends: text in word-sized deltas, tool calls whole. */
function streamParts(r: Result): unknown[] {
  const parts: unknown[] = [{ type: 'stream-start', warnings: [] }];
  for (const [i, c] of r.content.entries()) {
    if (c.type === 'text') {
      parts.push({ type: 'text-start', id: `t${i}` });
      for (const piece of c.text.match(/\S+\s*|\s+/g) ?? [])
        parts.push({ type: 'text-delta', id: `t${i}`, delta: piece });
      parts.push({ type: 'text-end', id: `t${i}` });
    } else parts.push(c);
  }
  if (r.finishReason.raw === 'broken')
    parts.push({ type: 'error', error: new Error('stream broke at 10.9.8.7 token=sk-internal') });
  else parts.push({ type: 'finish', finishReason: r.finishReason, usage: r.usage });
  return parts;
}

export interface Scripted {
  model: MockLanguageModelV4;
  /** Every prompt the model was given, in order. */
  prompts: Prompt[];
  /** What the model answers to the nth call of a turn (from 0) given the prompt; throw to fail. */
  script: (prompt: Prompt, n: number, system: string, abortSignal: AbortSignal | undefined) => Result | Promise<Result>;
  /** Starts counting calls from 0 again (call before each turn). */
  reset(): void;
}

export function scripted(name: string): Scripted {
  let n = 0;
  const s: Scripted = {
    prompts: [],
    script: () => say('Nothing scripted.'),
    reset() {
      n = 0;
      s.prompts.length = 0;
    },
    model: new MockLanguageModelV4({
      modelId: name,
      doGenerate: async (opts) => {
        const prompt = opts.prompt as Prompt;
        s.prompts.push(prompt);
        const system = String(prompt.find((m) => m.role === 'system')?.content ?? '');
        return s.script(prompt, n++, system, opts.abortSignal);
      },
      // The same script, streamed (streamText).
      doStream: async (opts) => {
        const prompt = opts.prompt as Prompt;
        s.prompts.push(prompt);
        const system = String(prompt.find((m) => m.role === 'system')?.content ?? '');
        const r = await s.script(prompt, n++, system, opts.abortSignal);
        return { stream: convertArrayToReadableStream(streamParts(r) as never[]) };
      },
    }),
  };
  return s;
}

export function models(language: Scripted, vision: Scripted = language): AiModels {
  return { label: 'mock agent-1', language: language.model, vision: vision.model, image: null, transcription: null };
}

/** The tool results the model was shown in a prompt, as text. */
export const toolResultsIn = (prompt: Prompt): string[] =>
  prompt
    .filter((m) => m.role === 'tool')
    .flatMap((m) =>
      (m.content as { type: string; output?: { value?: unknown } }[]).map((c) => String(c.output?.value ?? '')),
    );

export const chat = (h: Harness, key: string, body: Record<string, unknown>) =>
  h.req({ method: 'POST', url: '/workspace-agent/website/chat', headers: { 'x-api-key': key }, payload: body });

export const aiUsed = (h: Harness, u: TestUser) => h.ctx.credits.used(u.workspaceId, 'ai_credits');

export const chatStream = (h: Harness, key: string, body: Record<string, unknown>) =>
  h.req({ method: 'POST', url: '/workspace-agent/website/chat/stream', headers: { 'x-api-key': key }, payload: body });

export interface SseEvent {
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: a response body the tests index freely; each test asserts its shape
  data: any;
}

/** A server-sent events body as its events, in order (each block `event: …` then one `data: …` line). */
export function sseEvents(body: string): SseEvent[] {
  return body
    .split('\n\n')
    .filter((b) => b.trim())
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))!.slice('event: '.length);
      const data = lines
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice('data: '.length))
        .join('\n');
      return { event, data: JSON.parse(data) };
    });
}

/** The event names in order, consecutive repeats (text deltas) collapsed into one. */
export const eventOrder = (events: SseEvent[]) => events.map((e) => e.event).filter((e, i, all) => e !== all[i - 1]);

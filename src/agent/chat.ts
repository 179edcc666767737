// One chat turn of the workspace agent (docs/agent.md): the member's message and media are checked, the turn's
// `agent_turn` credits are charged before any model runs, the model works through the tool layer in an AI SDK tool
// loop (a step limit and a deadline), and the answer is built from its final text. The turn is archived and the
// workspace's memory updated (older turns folded into a summary when over the budget). A turn that fails (500) or
// gets no answer (502) gives its `agent_turn` credits back; what its tools spent stays spent, as their work happened.
// The streamed turn (POST …/chat/stream) is this same pipeline with `events`: the model through streamText, each
// tool call reported as it runs; everything else (checks, credits, answer, archive, memory) is shared.
import type { LanguageModel, ModelMessage } from 'ai';
import type { Logger } from 'pino';
import type { Principal } from '../auth/authenticate.ts';
import type { CreditService } from '../auth/credits.ts';
import type { AiModels } from '../ai/models.ts';
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';
import type { MediaService } from '../media/service.ts';
import type { NetworkContract } from '../platforms/contract.ts';
import type { ToolBox } from '../tools/index.ts';
import type { AgentAnswer, AgentToolCall, InvokeTool } from './answer.ts';
import type { AgentConfig } from './config.ts';
import { directCommand } from './commands.ts';
import { buildAnswer } from './extract.ts';
import { chatPartition, type AgentChatHistory, type ChatChannel, type MemoryMessage } from './history.ts';
import { prepareInput, type ChatInput, type PreparedInput } from './input.ts';
import { dataBlock, fold, turnMessages } from './memory.ts';
import { SUMMARY_INSTRUCTIONS, systemPrompt, userMessage, userTextOf } from './prompt.ts';
import { aiToolSet, invokerFor } from './tools.ts';

/** Credits of one turn (interface Limits: `agent_turn` 2 plus each tool's own cost). */
export const AGENT_TURN_CREDITS = 2;

/** How the built-in provider answers a turn without a model (src/agent/commands.ts). */
export type DirectCommand = (
  text: string,
  invoke: InvokeTool,
  toolNames: readonly string[],
  networks: readonly NetworkContract[],
) => Promise<{ answer: AgentAnswer; calls: AgentToolCall[] }>;

export interface AgentChatDeps {
  /** The tool layer the agent's model (or the built-in provider's direct commands) calls. */
  tools: ToolBox;
  /** The registered networks, for the direct commands' names and aliases. */
  networks: readonly NetworkContract[];
  models: AiModels | null;
  history: AgentChatHistory;
  credits: CreditService;
  media: MediaService;
  config: AgentConfig;
  /** One model call's deadline (HERALD_AI_TIMEOUT_SECONDS), for the memory summary. */
  modelTimeoutMs: number;
  clock: Clock;
  logger: Logger;
  /** The built-in provider's answers without a model (default: the direct commands of ./commands.ts). */
  directCommand?: DirectCommand;
}

/**
 * What a streamed turn tells its caller as it runs (POST /workspace-agent/website/chat/stream). Called synchronously;
 * a listener must not throw.
 */
export interface TurnEvents {
  /**
   * The turn was accepted (input checked, credits charged): errors before this are the route's ordinary JSON errors.
   */
  started(): void;
  /** A piece of text the model wrote (every step's text, as it arrives). */
  delta(text: string): void;
  /** A tool is about to run with these (unchecked) arguments. */
  toolCall(name: string, args: Record<string, unknown>): void;
  /** A tool ended. */
  toolResult(call: AgentToolCall): void;
}

export interface TurnOptions {
  channel?: ChatChannel;
  /** Stream the turn: the model through `streamText`, the tool calls and text as they happen. */
  events?: TurnEvents;
  /** Ends the turn early (a streaming client that went away): the model call is aborted, the turn fails. */
  signal?: AbortSignal;
}

export interface TurnResult {
  answer: AgentAnswer;
  calls: AgentToolCall[];
  /** The model steps the turn took (0 without a model). */
  steps: number;
}

/** A failed turn, in words that name no secret, address or stack: the route turns it into a 500 with the request id. */
export class AgentFailure extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(reason);
    this.reason = reason;
    this.name = 'AgentFailure';
  }
}

let sdk: Promise<typeof import('ai')> | undefined;
const aiSdk = () => (sdk ??= import('ai'));

/** An error of a model call in words without internals (the SDK's retries wrap the last failure). */
export function failureReason(err: unknown): string {
  const outer = err as { name?: string; lastError?: unknown };
  const e = (outer?.name === 'AI_RetryError' && outer.lastError ? outer.lastError : err) as {
    name?: string;
    statusCode?: number;
    cause?: unknown;
  };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'the agent did not finish in time';
  if (typeof e?.statusCode === 'number') return `the model provider answered HTTP ${e.statusCode}`;
  if (e?.name === 'AI_APICallError') return 'the model provider could not be reached';
  if (e?.name?.startsWith('AI_')) return `the model call failed (${e.name.slice(3)})`;
  return 'the model call failed';
}

export class AgentChat {
  readonly #d: AgentChatDeps;
  readonly #direct: DirectCommand;

  constructor(deps: AgentChatDeps) {
    this.#d = deps;
    this.#direct = deps.directCommand ?? directCommand;
  }

  /** Whether a model answers (otherwise the built-in provider's direct commands). */
  get hasModel(): boolean {
    return this.#d.models !== null;
  }

  /**
   * One turn on a channel; throws AppError (402/403/404/422/502) or AgentFailure (500). The blocking and the streamed
   * turn are this one pipeline: with `events` the model is streamed and each tool call is reported as it runs.
   */
  async turn(p: Principal, raw: ChatInput, opts: TurnOptions | ChatChannel = {}): Promise<TurnResult> {
    const { channel = 'website', events, signal } = typeof opts === 'string' ? { channel: opts } : opts;
    const input = await prepareInput(this.#d.media, p, raw);
    const at = this.#d.clock();
    // Charged before anything runs: 402 with no model call when the workspace cannot pay.
    await this.#d.credits.spend({
      workspaceId: p.workspaceId,
      planId: p.planId,
      type: 'ai_credits',
      amount: AGENT_TURN_CREDITS,
      reason: 'agent_turn',
    });
    let result: TurnResult;
    try {
      events?.started();
      result = this.#d.models
        ? await this.#modelTurn(p, input, this.#d.models, events, signal)
        : await this.#builtinTurn(p, input, events);
      if (!result.answer.response.trim()) throw new AppError('bad_gateway', 'The agent returned an empty response.');
    } catch (err) {
      await this.#d.credits.refund({
        workspaceId: p.workspaceId,
        type: 'ai_credits',
        amount: AGENT_TURN_CREDITS,
        reason: 'agent_turn_refund',
      });
      throw err;
    }
    // A turn whose tools cleared the history (the member asked to forget) is neither archived nor remembered.
    if (result.calls.some((c) => c.name === 'clear_workspace_chat_history' && c.result.success !== false))
      return result;
    const userText = userTextOf(input);
    const raw_ = JSON.stringify(result.answer);
    const partition = chatPartition(p.scope);
    await this.#d.history.archive({
      workspaceId: p.workspaceId,
      partition,
      channel,
      user: { text: userText, at },
      assistant: { text: result.answer.response, raw: raw_, at: this.#d.clock() },
    });
    await this.#remember(
      p.workspaceId,
      partition,
      turnMessages(userText, result.answer.response, result.calls, this.#d.config.toolResultChars),
    );
    return result;
  }

  /** The agent's tools for the member; with `events`, each call is reported before it runs and when it ends. */
  #tools(p: Principal, events?: TurnEvents) {
    const tools = this.#d.tools.list('agent');
    const run = invokerFor(this.#d.tools, p, tools, this.#d.logger);
    const invoke: InvokeTool = !events
      ? run
      : async (name, args) => {
          events.toolCall(name, args);
          const result = await run(name, args);
          events.toolResult({ name, args, result });
          return result;
        };
    return { tools, invoke };
  }

  async #builtinTurn(p: Principal, input: PreparedInput, events?: TurnEvents): Promise<TurnResult> {
    const { tools, invoke } = this.#tools(p, events);
    try {
      const out = await this.#direct(
        input.text || userTextOf(input),
        invoke,
        tools.map((t) => t.name),
        this.#d.networks,
      );
      return { ...out, steps: 0 };
    } catch (err) {
      if (err instanceof AppError) throw err;
      this.#d.logger.error({ err }, 'agent direct command failed');
      throw new AgentFailure('the direct command failed');
    }
  }

  async #modelTurn(
    p: Principal,
    input: PreparedInput,
    models: AiModels,
    events?: TurnEvents,
    signal?: AbortSignal,
  ): Promise<TurnResult> {
    const sdk = await aiSdk();
    const { generateText, streamText, stepCountIs } = sdk;
    const { tools, invoke } = this.#tools(p, events);
    const calls: AgentToolCall[] = [];
    // The caller's own history: a network-scoped key never hears the workspace's conversation about other networks.
    const memory = await this.#d.history.memory(p.workspaceId, chatPartition(p.scope));
    const messages: ModelMessage[] = [...memory.recent.map(toModelMessage), userMessage(input)];
    const model: LanguageModel = input.image ? models.vision : models.language;
    const timeout = AbortSignal.timeout(this.#d.config.timeoutMs);
    const call = {
      model,
      system: systemPrompt(this.#d.clock(), memory),
      messages,
      tools: aiToolSet(sdk, tools, invoke, calls),
      stopWhen: stepCountIs(this.#d.config.maxSteps),
      maxRetries: 1,
      abortSignal: signal ? AbortSignal.any([timeout, signal]) : timeout,
    };
    let out: { text: string; finishReason: string; steps: number };
    try {
      if (!events) {
        const r = await generateText(call);
        out = { text: r.text, finishReason: r.finishReason, steps: r.steps.length };
      } else {
        // The same loop streamed: errors come as stream parts (thrown here), text as it arrives.
        const s = streamText({ ...call, onError: () => {} });
        for await (const part of s.fullStream) {
          if (part.type === 'text-delta' && part.text) events.delta(part.text);
          else if (part.type === 'error') throw part.error;
          else if (part.type === 'abort') throw Object.assign(new Error('aborted'), { name: 'AbortError' });
        }
        out = { text: await s.text, finishReason: await s.finishReason, steps: (await s.steps).length };
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      const reason = signal?.aborted ? 'the client went away' : failureReason(err);
      this.#d.logger.error(
        { error: reason, name: (err as Error)?.name, workspaceId: p.workspaceId },
        'agent turn failed',
      );
      throw new AgentFailure(reason);
    }
    let text = out.text.trim();
    // The step limit ended the loop while the model was still calling tools: say so, with what was done.
    if (!text && out.finishReason === 'tool-calls' && out.steps >= this.#d.config.maxSteps) {
      const done = calls.map((c) => `- ${c.name}: ${c.result.success === false ? 'failed' : 'done'}`).join('\n');
      text = `I stopped after ${out.steps} steps (this server's limit per message) before I could finish.${done ? `\n\nWhat I did:\n${done}` : ''}\n\nAsk me to continue, or split the request into smaller ones.`;
    }
    return { answer: buildAnswer(text, calls, true), calls, steps: out.steps };
  }

  /**
   * Adds the turn to the workspace's memory (atomically: members chatting at once all stay remembered), then folds
   * older turns into the summary when over the budget; the fold is written only if no other turn folded them first.
   */
  async #remember(workspaceId: string, partition: string, turn: MemoryMessage[]): Promise<void> {
    const now = await this.#d.history.appendMemory(workspaceId, turn, partition);
    const { memory, folded } = await fold(now, this.#d.config.memoryTokens, (previous, leaving) =>
      this.#summarise(previous, leaving),
    );
    if (folded || memory.summary !== now.summary)
      await this.#d.history.foldMemory(workspaceId, now.recent.slice(0, folded), memory.summary, partition);
  }

  async #summarise(previous: string, leaving: readonly MemoryMessage[]): Promise<string> {
    const models = this.#d.models;
    if (!models) throw new Error('no model to summarise with');
    const { generateText } = await aiSdk();
    const body = [
      previous ? dataBlock('previous_summary', previous) : '',
      dataBlock('messages', leaving.map((m) => `${m.role === 'user' ? 'Member' : 'Agent'}: ${m.content}`).join('\n\n')),
    ]
      .filter(Boolean)
      .join('\n');
    const out = await generateText({
      model: models.language,
      system: SUMMARY_INSTRUCTIONS,
      prompt: body,
      maxRetries: 1,
      abortSignal: AbortSignal.timeout(this.#d.modelTimeoutMs),
    });
    return out.text;
  }
}

/**
 * A remembered message for the model: the member's past words as theirs, the agent's answers (with tool data) as its
 * own.
 */
function toModelMessage(m: MemoryMessage): ModelMessage {
  return m.role === 'user' ? { role: 'user', content: m.content } : { role: 'assistant', content: m.content };
}

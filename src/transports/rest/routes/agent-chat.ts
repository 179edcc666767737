// POST /workspace-agent/website/chat: one turn with the workspace agent (interface "Agent chat", docs/agent.md), and
// POST /workspace-agent/website/chat/stream: the same turn as server-sent events (beyond the interface).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import type { AgentAnswer } from '../../../agent/answer.ts';
import { AgentFailure } from '../../../agent/chat.ts';
import type { ChatInput } from '../../../agent/input.ts';
import { AppError } from '../../../errors.ts';
import { principalOf } from '../access.ts';
import { errorResponses, workspaceSecurity } from '../schemas.ts';

/** A UUID, or empty (an empty field counts as not sent). */
const optionalId = (what: string) =>
  z
    .union([z.uuid(), z.literal('')])
    .nullish()
    .describe(what);

export const chatBody = z.object({
  text: z.string().max(20_000).nullish().describe("The member's message"),
  image_url: z
    .string()
    .max(4000)
    .nullish()
    .describe('An image to show the agent: fetched by Herald (public http(s) URLs only) and given to the vision model'),
  video_url: z
    .string()
    .max(4000)
    .nullish()
    .describe('A video for the agent: given to it as a reference it passes to analyze_media or media_to_content'),
  image_media_id: optionalId("An image of this workspace's media library"),
  video_media_id: optionalId("A video of this workspace's media library"),
  workspace_id: optionalId("The workspace's UUID: when sent, it must be the caller's (403 otherwise)"),
});

export const agentAnswerSchema = z.object({
  response: z.string().describe('The answer in markdown; always present'),
  tables_markdown: z.string().describe("The answer's GFM tables ('' when none)"),
  charts_markdown: z.string().describe("Charts as ```mermaid blocks (xychart, pie) ('' when none)"),
  mermaid_diagrams: z.array(z.string()).describe("The bodies of the answer's mermaid blocks"),
  image_urls: z.array(z.string()).describe('Images the turn made or stored (from tool results)'),
  video_urls: z.array(z.string()),
  append_footer: z
    .boolean()
    .describe("Whether a client shows its standard 'written by AI' footer (true when a model wrote the answer)"),
});

const chatResponse = z.object({
  success: z.boolean(),
  agent_response_json: z.string().describe('`parsed` as a JSON string'),
  parsed: agentAnswerSchema,
});

/** The response body of a turn (also the data of the stream's `answer` event). */
const answerBody = (answer: AgentAnswer) => ({
  success: true,
  agent_response_json: JSON.stringify(answer),
  parsed: answer,
});

/** A tool result in a few words for the stream: its message, or the fields it returned (never the whole result). */
export function resultSummary(result: Record<string, unknown>): string {
  const text =
    typeof result.message === 'string' && result.message
      ? result.message
      : Object.keys(result)
          .filter((k) => k !== 'success')
          .join(', ');
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** Up to this size a chat body is read (text and references; media comes by URL or id). */
const CHAT_BODY_LIMIT = 256 * 1024;

export async function agentChatRoute(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/workspace-agent/website/chat',
    {
      // No plan feature: the interface gates the agent by nothing but credits; each tool checks its own feature.
      config: { access: { kind: 'workspace' as const } },
      bodyLimit: CHAT_BODY_LIMIT,
      schema: {
        tags: ['agent'],
        operationId: 'chatWithAgent',
        summary: 'One turn with the workspace agent: it answers and acts with the tool layer',
        responseDescription: "The agent's answer and what it did.",
        description:
          'At least one of text, image_url, video_url, image_media_id, video_media_id (422 otherwise). Costs 2 AI credits (agent_turn, charged before the model runs: 402 when they cannot be paid) plus what its tools spend. 500 when the agent fails (the detail names the request id), 502 when it returns an empty answer; both give the 2 credits back.',
        security: workspaceSecurity,
        body: chatBody,
        response: { 200: chatResponse, ...errorResponses(402, 502) },
      },
    },
    async (req) => {
      const { p, input } = turnInput(req);
      try {
        const { answer } = await ctx.agent.turn(p, input);
        return answerBody(answer);
      } catch (err) {
        throw publicError(err, req);
      }
    },
  );

  r.post(
    '/workspace-agent/website/chat/stream',
    {
      config: { access: { kind: 'workspace' as const } },
      bodyLimit: CHAT_BODY_LIMIT,
      schema: {
        tags: ['agent'],
        operationId: 'chatWithAgentStream',
        summary: 'The same turn, streamed as server-sent events',
        description:
          "Beyond the interface. The body, credits and the errors before the stream (403/404/422/402 as JSON) are those of POST /workspace-agent/website/chat. Events: `delta` {text} as the model writes; `tool_call` {name, args} before a tool runs; `tool_result` {name, success, summary}; last either `answer` with the chat route's response body {success, agent_response_json, parsed} or `error` {status, detail} (500/502, credits given back). A client that disconnects aborts the model.",
        security: workspaceSecurity,
        body: chatBody,
        response: {
          200: z
            .string()
            .describe("text/event-stream: the events above; the `answer` event's data is the chat route's 200 body"),
          ...errorResponses(402),
        },
      },
    },
    async (req, reply) => {
      const { p, input } = turnInput(req);
      const res = reply.raw;
      let open = false;
      const send = (event: string, data: unknown) => {
        if (!res.writableEnded && !res.destroyed) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      };
      // A client that goes away aborts the model call (the turn then fails: credits back, nothing archived).
      const gone = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) gone.abort();
      });
      try {
        const { answer } = await ctx.agent.turn(p, input, {
          signal: gone.signal,
          events: {
            // Input checked and credits charged: from here on, everything is an event.
            started: () => {
              reply.hijack();
              res.writeHead(200, {
                'content-type': 'text/event-stream; charset=utf-8',
                'cache-control': 'no-store',
                connection: 'keep-alive',
                'x-accel-buffering': 'no',
              });
              res.flushHeaders();
              open = true;
            },
            delta: (text) => send('delta', { text }),
            toolCall: (name, args) => send('tool_call', { name, args }),
            toolResult: ({ name, result }) =>
              send('tool_result', { name, success: result.success !== false, summary: resultSummary(result) }),
          },
        });
        send('answer', answerBody(answer));
      } catch (err) {
        const e = publicError(err, req);
        if (!open) throw e;
        if (!(e instanceof AppError) || e.status >= 500)
          req.log.warn({ status: e instanceof AppError ? e.status : 500 }, 'agent stream ended with an error');
        send(
          'error',
          e instanceof AppError
            ? { status: e.status, detail: e.body().detail }
            : { status: 500, detail: `The agent could not answer. Request id: ${req.id}.` },
        );
      }
      res.end();
    },
  );
}

function turnInput(req: FastifyRequest) {
  const p = principalOf(req);
  const b = req.body as z.infer<typeof chatBody>;
  if (b.workspace_id && b.workspace_id.toLowerCase() !== p.workspaceId.toLowerCase())
    throw new AppError('forbidden', 'workspace does not match API key');
  const input: ChatInput = {
    text: b.text,
    imageUrl: b.image_url,
    videoUrl: b.video_url,
    imageMediaId: b.image_media_id,
    videoMediaId: b.video_media_id,
  };
  return { p, input };
}

/** A turn's failure as the client may see it: an AgentFailure becomes a 500 naming its kind and the request id. */
function publicError(err: unknown, req: FastifyRequest): unknown {
  if (err instanceof AgentFailure)
    return new AppError('internal', `The agent could not answer: ${err.reason}. Request id: ${req.id}.`);
  return err;
}

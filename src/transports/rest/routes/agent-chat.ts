// POST /workspace-agent/website/chat: one turn with the workspace agent (interface "Agent chat", docs/agent.md).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../context.ts';
import { AgentFailure } from '../../../agent/chat.ts';
import { AppError } from '../../../errors.ts';
import { principalOf } from '../access.ts';
import { workspaceSecurity } from '../schemas.ts';

/** A UUID, or empty (an empty field counts as not sent). */
const optionalId = (what: string) => z.union([z.uuid(), z.literal('')]).nullish().describe(what);

export const chatBody = z.object({
  text: z.string().max(20_000).nullish().describe("The member's message"),
  image_url: z.string().max(4000).nullish().describe('An image to show the agent: fetched by Herald (public http(s) URLs only) and given to the vision model'),
  video_url: z.string().max(4000).nullish().describe('A video for the agent: given to it as a reference it passes to analyze_media or media_to_content'),
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
  append_footer: z.boolean().describe("Whether a client shows its standard 'written by AI' footer (true when a model wrote the answer)"),
});

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
        summary: 'One turn with the workspace agent: it answers and acts with the tool layer',
        description:
          'At least one of text, image_url, video_url, image_media_id, video_media_id (422 otherwise). Costs 2 AI credits (agent_turn, charged before the model runs: 402 when they cannot be paid) plus what its tools spend. 500 when the agent fails (the detail names the request id), 502 when it returns an empty answer; both give the 2 credits back.',
        security: workspaceSecurity,
        body: chatBody,
        response: { 200: z.object({ success: z.boolean(), agent_response_json: z.string().describe('`parsed` as a JSON string'), parsed: agentAnswerSchema }) },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const b = req.body;
      if (b.workspace_id && b.workspace_id.toLowerCase() !== p.workspaceId.toLowerCase()) throw new AppError('forbidden', 'workspace does not match API key');
      try {
        const { answer } = await ctx.agent.turn(p, { text: b.text, imageUrl: b.image_url, videoUrl: b.video_url, imageMediaId: b.image_media_id, videoMediaId: b.video_media_id });
        return { success: true, agent_response_json: JSON.stringify(answer), parsed: answer };
      } catch (err) {
        if (err instanceof AgentFailure) throw new AppError('internal', `The agent could not answer: ${err.reason}. Request id: ${req.id}.`);
        throw err;
      }
    },
  );
}

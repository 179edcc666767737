// /user-agent-chats: the workspace agent's archived chat turns (interface "Agent chat", "Chat turn"): list them
// newest first with channel and inclusive time filters, or delete them all together with the agent's memory. Both
// act on the caller's history: the workspace's for members and full-scope keys, a network-scoped key's own otherwise.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import { CHAT_CHANNELS, chatPartition, turnToWire } from '../../../agent/history.ts';
import { dateTime } from '../../../publishing/index.ts';
import { principalOf } from '../access.ts';
import { workspaceSecurity } from '../schemas.ts';

const isoTime = z.string().describe('ISO 8601 timestamp');
export const chatTurnSchema = z.object({
  id: z.number().int(),
  workspace_id: z.uuid(),
  created_at: isoTime,
  turn: z.object({
    channel: z.enum(CHAT_CHANNELS),
    user: z.object({ text: z.string(), at: isoTime }),
    assistant: z.object({
      text: z.string(),
      raw: z.string().describe("The agent's answer as the JSON string it returned (agent_response_json)"),
      at: isoTime,
    }),
  }),
});

export async function agentChatRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = { kind: 'workspace' as const };

  r.get(
    '/user-agent-chats',
    {
      config: { access },
      schema: {
        tags: ['agent'],
        operationId: 'listAgentChats',
        summary: "The workspace agent's archived chat turns, newest first",
        responseDescription: 'A page of archived chat turns, newest first.',
        security: workspaceSecurity,
        querystring: z.object({
          channel: z.enum(CHAT_CHANNELS).optional().describe('Only turns on this channel'),
          since: dateTime.optional().describe('Only turns created at or after this ISO 8601 date-time (inclusive)'),
          until: dateTime.optional().describe('Only turns created at or before this ISO 8601 date-time (inclusive)'),
          limit: z.coerce.number().int().min(1).max(100).default(20),
          offset: z.coerce.number().int().min(0).default(0),
        }),
        response: {
          200: z.object({
            success: z.boolean(),
            items: z.array(chatTurnSchema),
            total: z.number().int().describe('How many turns match the filters, ignoring limit and offset'),
            limit: z.number().int(),
            offset: z.number().int(),
          }),
        },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const q = req.query;
      const { items, total } = await ctx.agentChats.list(
        p.workspaceId,
        {
          channel: q.channel,
          since: q.since ? new Date(q.since) : undefined,
          until: q.until ? new Date(q.until) : undefined,
          limit: q.limit,
          offset: q.offset,
        },
        chatPartition(p.scope),
      );
      return { success: true, items: items.map(turnToWire), total, limit: q.limit, offset: q.offset };
    },
  );

  r.delete(
    '/user-agent-chats',
    {
      config: { access },
      schema: {
        tags: ['agent'],
        operationId: 'deleteAgentChats',
        summary:
          "Delete every archived chat turn of the caller's history (all channels) and the agent's memory of it; irreversible",
        responseDescription: 'The chat history is deleted: how many turns.',
        security: workspaceSecurity,
        response: { 200: z.object({ success: z.boolean(), deleted_archived_turns: z.number().int() }) },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const { deletedTurns } = await ctx.agentChats.clear(p.workspaceId, chatPartition(p.scope));
      return { success: true, deleted_archived_turns: deletedTurns };
    },
  );
}

// The workspace agent's chat history and memory (docs/agent.md "History and memory"). Every turn is archived with its
// channel; GET /user-agent-chats pages through them newest first; clearing (DELETE /user-agent-chats and the
// clear_workspace_chat_history tool) removes the archived turns and the agent's memory together. Each is one
// history of the workspace (chatPartition): the workspace's own for members and full-scope keys, a network-scoped
// key's own otherwise.
import type { Clock } from '../clock.ts';
import type { Db } from '../db/client.ts';
import { and, count, desc, eq, gte, lte, sql } from '../db/orm.ts';
import { agentChatTurns, agentMemory } from '../db/schema-agent.ts';
import { WORKSPACE_HISTORY, type WorkspaceChatHistory } from '../tools/chat-history.ts';

export { chatPartition, WORKSPACE_HISTORY } from '../tools/chat-history.ts';

export const CHAT_CHANNELS = ['website', 'mobile', 'whatsapp', 'instagram_dm', 'facebook_messenger'] as const;
export type ChatChannel = (typeof CHAT_CHANNELS)[number];

export interface TurnToArchive {
  workspaceId: string;
  /** Whose history (chatPartition); the workspace's by default. */
  partition?: string;
  channel: ChatChannel;
  user: { text: string; at: Date };
  assistant: { text: string; raw: string; at: Date };
  /** When the turn is archived; the clock's now by default. */
  createdAt?: Date;
}

export interface ArchivedTurn {
  id: number;
  workspaceId: string;
  createdAt: Date;
  channel: ChatChannel;
  user: { text: string; at: Date };
  assistant: { text: string; raw: string; at: Date };
}

export interface TurnFilters {
  channel?: ChatChannel | undefined;
  /** Inclusive bounds on created_at. */
  since?: Date | undefined;
  until?: Date | undefined;
  limit: number;
  offset: number;
}

/** A message the agent hands back to the model next turn (tool results kept compact by the chat loop). */
export interface MemoryMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface AgentMemory {
  summary: string;
  recent: MemoryMessage[];
}

/** The wire form of a Chat turn (interface "Chat turn"). */
export function turnToWire(t: ArchivedTurn) {
  return {
    id: t.id,
    workspace_id: t.workspaceId,
    created_at: t.createdAt.toISOString(),
    turn: {
      channel: t.channel,
      user: { text: t.user.text, at: t.user.at.toISOString() },
      assistant: { text: t.assistant.text, raw: t.assistant.raw, at: t.assistant.at.toISOString() },
    },
  };
}

export class AgentChatHistory implements WorkspaceChatHistory {
  private readonly db: Db;
  private readonly clock: Clock;
  constructor(db: Db, clock: Clock) {
    this.db = db;
    this.clock = clock;
  }

  async archive(turn: TurnToArchive): Promise<ArchivedTurn> {
    const [row] = await this.db
      .insert(agentChatTurns)
      .values({
        workspaceId: turn.workspaceId,
        scopeKey: turn.partition ?? WORKSPACE_HISTORY,
        channel: turn.channel,
        userText: turn.user.text,
        userAt: turn.user.at,
        assistantText: turn.assistant.text,
        assistantRaw: turn.assistant.raw,
        assistantAt: turn.assistant.at,
        createdAt: turn.createdAt ?? this.clock(),
      })
      .returning();
    return fromRow(row!);
  }

  /** One page of one history's turns, newest first, and how many match the filters in all. */
  async list(
    workspaceId: string,
    f: TurnFilters,
    partition = WORKSPACE_HISTORY,
  ): Promise<{ items: ArchivedTurn[]; total: number }> {
    const where = and(
      eq(agentChatTurns.workspaceId, workspaceId),
      eq(agentChatTurns.scopeKey, partition),
      f.channel ? eq(agentChatTurns.channel, f.channel) : undefined,
      f.since ? gte(agentChatTurns.createdAt, f.since) : undefined,
      f.until ? lte(agentChatTurns.createdAt, f.until) : undefined,
    );
    const [rows, [totals]] = await Promise.all([
      this.db
        .select()
        .from(agentChatTurns)
        .where(where)
        .orderBy(desc(agentChatTurns.createdAt), desc(agentChatTurns.id))
        .limit(f.limit)
        .offset(f.offset),
      this.db.select({ n: count() }).from(agentChatTurns).where(where),
    ]);
    return { items: rows.map(fromRow), total: Number(totals?.n ?? 0) };
  }

  /** Deletes every archived turn of one history (all channels) and the agent's memory of it, in one transaction. */
  async clear(workspaceId: string, partition = WORKSPACE_HISTORY): Promise<{ deletedTurns: number }> {
    return this.db.transaction(async (tx) => {
      const gone = await tx
        .delete(agentChatTurns)
        .where(and(eq(agentChatTurns.workspaceId, workspaceId), eq(agentChatTurns.scopeKey, partition)))
        .returning({ id: agentChatTurns.id });
      await tx.delete(agentMemory).where(memoryOf(workspaceId, partition));
      return { deletedTurns: gone.length };
    });
  }

  /** The agent's memory of one history's conversation (empty when there is none). */
  async memory(workspaceId: string, partition = WORKSPACE_HISTORY): Promise<AgentMemory> {
    const [row] = await this.db.select().from(agentMemory).where(memoryOf(workspaceId, partition));
    return row ? { summary: row.summary, recent: row.recent as MemoryMessage[] } : { summary: '', recent: [] };
  }

  /** Appends a turn's messages to the memory in one statement (two members' turns at once both stay). */
  async appendMemory(
    workspaceId: string,
    messages: MemoryMessage[],
    partition = WORKSPACE_HISTORY,
  ): Promise<AgentMemory> {
    const now = this.clock();
    const added = JSON.stringify(messages);
    const [row] = await this.db
      .insert(agentMemory)
      .values({ workspaceId, scopeKey: partition, summary: '', recent: messages, updatedAt: now })
      .onConflictDoUpdate({
        target: [agentMemory.workspaceId, agentMemory.scopeKey],
        set: { recent: sql`${agentMemory.recent} || ${added}::jsonb`, updatedAt: now },
      })
      .returning();
    return { summary: row!.summary, recent: row!.recent as MemoryMessage[] };
  }

  /**
   * Replaces the summary and drops the `folded` oldest recent messages, if they are still the ones the summary was
   * written from (another turn may have folded them meanwhile: then nothing changes). Messages appended since stay.
   */
  async foldMemory(
    workspaceId: string,
    folded: readonly MemoryMessage[],
    summary: string,
    partition = WORKSPACE_HISTORY,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(agentMemory).where(memoryOf(workspaceId, partition)).for('update');
      if (!row) return false;
      const recent = row.recent as MemoryMessage[];
      const same =
        folded.length <= recent.length &&
        folded.every((m, i) => recent[i]!.role === m.role && recent[i]!.content === m.content);
      if (!same) return false;
      await tx
        .update(agentMemory)
        .set({ summary, recent: recent.slice(folded.length), updatedAt: this.clock() })
        .where(memoryOf(workspaceId, partition));
      return true;
    });
  }

  async saveMemory(workspaceId: string, memory: AgentMemory, partition = WORKSPACE_HISTORY): Promise<void> {
    const now = this.clock();
    await this.db
      .insert(agentMemory)
      .values({ workspaceId, scopeKey: partition, summary: memory.summary, recent: memory.recent, updatedAt: now })
      .onConflictDoUpdate({
        target: [agentMemory.workspaceId, agentMemory.scopeKey],
        set: { summary: memory.summary, recent: memory.recent, updatedAt: now },
      });
  }
}

const memoryOf = (workspaceId: string, partition: string) =>
  and(eq(agentMemory.workspaceId, workspaceId), eq(agentMemory.scopeKey, partition));

function fromRow(r: typeof agentChatTurns.$inferSelect): ArchivedTurn {
  return {
    id: r.id,
    workspaceId: r.workspaceId,
    createdAt: r.createdAt,
    channel: r.channel as ChatChannel,
    user: { text: r.userText, at: r.userAt },
    assistant: { text: r.assistantText, raw: r.assistantRaw, at: r.assistantAt },
  };
}

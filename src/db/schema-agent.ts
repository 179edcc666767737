// The workspace agent's storage: every chat turn archived with its channel (GET/DELETE /user-agent-chats) and the
// agent's memory of the conversation, one per workspace and scope key: members and full-scope API keys share the
// workspace's, a network-scoped key has its own. Clearing the history removes both.
import { pgCore } from './orm.ts';
import { workspaces } from './schema.ts';

const { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } = pgCore;
const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** One archived exchange: what the user said and what the agent answered, on one channel. */
export const agentChatTurns = pgTable(
  'agent_chat_turns',
  {
    /** The integer id of the Chat turn shape. */
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /**
     * Whose history within the workspace: '' for members and full-scope keys, else the scoped key's (chatPartition).
     */
    scopeKey: text('scope_key').notNull().default(''),
    /** website | mobile | whatsapp | instagram_dm | facebook_messenger */
    channel: text('channel').notNull(),
    userText: text('user_text').notNull(),
    userAt: tz('user_at').notNull(),
    assistantText: text('assistant_text').notNull(),
    /** The agent's answer as the JSON string it returned (agent_response_json). */
    assistantRaw: text('assistant_raw').notNull(),
    assistantAt: tz('assistant_at').notNull(),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [index('agent_chat_turns_ws_created_idx').on(t.workspaceId, t.scopeKey, t.createdAt, t.id)],
);

/**
 * What the agent remembers of a workspace's conversation (per scope key): a summary of older turns plus the recent
 * ones, compact.
 */
export const agentMemory = pgTable(
  'agent_memory',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** As agent_chat_turns.scope_key. */
    scopeKey: text('scope_key').notNull().default(''),
    /** The summary of the turns that no longer fit the model's context; empty until the first summarisation. */
    summary: text('summary').notNull().default(''),
    /** The recent messages handed back to the model, oldest first: [{role, content}]. */
    recent: jsonb('recent').notNull().default([]),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.scopeKey] })],
);

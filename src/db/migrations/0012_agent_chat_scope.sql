ALTER TABLE "agent_chat_turns" ADD COLUMN "scope_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_memory" ADD COLUMN "scope_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_memory" DROP CONSTRAINT "agent_memory_pkey";--> statement-breakpoint
ALTER TABLE "agent_memory" ADD CONSTRAINT "agent_memory_workspace_id_scope_key_pk" PRIMARY KEY("workspace_id","scope_key");--> statement-breakpoint
DROP INDEX "agent_chat_turns_ws_created_idx";--> statement-breakpoint
CREATE INDEX "agent_chat_turns_ws_created_idx" ON "agent_chat_turns" USING btree ("workspace_id","scope_key","created_at","id");

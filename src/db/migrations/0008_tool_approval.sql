ALTER TABLE "drafts" ADD COLUMN "requested_via" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "tool_posts_need_approval" boolean DEFAULT false NOT NULL;
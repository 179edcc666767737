ALTER TABLE "drafts" ADD COLUMN "kind" text DEFAULT 'post' NOT NULL;--> statement-breakpoint
ALTER TABLE "drafts" ADD COLUMN "action" jsonb;
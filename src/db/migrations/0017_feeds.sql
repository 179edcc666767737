CREATE TABLE "feed_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"feed_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"item_key" text NOT NULL,
	"title" text,
	"link" text,
	"published_at" timestamp with time zone,
	"outcome" text NOT NULL,
	"detail" text,
	"refs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feeds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"url" text NOT NULL,
	"networks" jsonb NOT NULL,
	"mode" text DEFAULT 'draft' NOT NULL,
	"delay_minutes" integer DEFAULT 0 NOT NULL,
	"delay_from" text DEFAULT 'found' NOT NULL,
	"template" text NOT NULL,
	"ai" boolean DEFAULT false NOT NULL,
	"backfill" boolean DEFAULT false NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"scope" text DEFAULT '' NOT NULL,
	"created_by" uuid,
	"etag" text,
	"last_modified" text,
	"last_polled_at" timestamp with time zone,
	"primed" boolean DEFAULT false NOT NULL,
	"last_success_at" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"failures" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "feed_items" ADD CONSTRAINT "feed_items_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feed_items" ADD CONSTRAINT "feed_items_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feeds" ADD CONSTRAINT "feeds_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feeds" ADD CONSTRAINT "feeds_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "feed_items_feed_key_idx" ON "feed_items" USING btree ("feed_id","item_key");--> statement-breakpoint
CREATE INDEX "feed_items_feed_seen_idx" ON "feed_items" USING btree ("feed_id","seen_at");--> statement-breakpoint
CREATE INDEX "feeds_ws_idx" ON "feeds" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "feeds_due_idx" ON "feeds" USING btree ("last_polled_at");
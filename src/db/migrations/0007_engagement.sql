CREATE TABLE "network_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"network_post_id" uuid NOT NULL,
	"platform_comment_id" text NOT NULL,
	"parent_comment_id" text,
	"text" text NOT NULL,
	"author_name" text NOT NULL,
	"author_id" text,
	"author_avatar_url" text,
	"commented_at" timestamp with time zone,
	"like_count" bigint DEFAULT 0 NOT NULL,
	"reply_count" bigint DEFAULT 0 NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"refs" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"synced_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "network_posts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"platform_post_id" text NOT NULL,
	"source_page_id" text,
	"post_target_id" uuid,
	"commentary" text,
	"post_type" text NOT NULL,
	"published_at" timestamp with time zone,
	"permalink" text,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"videos" jsonb,
	"likes" bigint DEFAULT 0 NOT NULL,
	"comments" bigint DEFAULT 0 NOT NULL,
	"shares" bigint DEFAULT 0 NOT NULL,
	"impressions" bigint DEFAULT 0 NOT NULL,
	"reach" bigint,
	"comments_disabled" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp with time zone,
	"refreshed_at" timestamp with time zone NOT NULL,
	"comments_synced_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "post_metric_snapshots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"network_post_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"likes" bigint DEFAULT 0 NOT NULL,
	"comments" bigint DEFAULT 0 NOT NULL,
	"shares" bigint DEFAULT 0 NOT NULL,
	"impressions" bigint DEFAULT 0 NOT NULL,
	"reach" bigint
);
--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "network_comments" ADD CONSTRAINT "network_comments_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_comments" ADD CONSTRAINT "network_comments_network_post_id_network_posts_id_fk" FOREIGN KEY ("network_post_id") REFERENCES "public"."network_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_posts" ADD CONSTRAINT "network_posts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_posts" ADD CONSTRAINT "network_posts_post_target_id_post_targets_id_fk" FOREIGN KEY ("post_target_id") REFERENCES "public"."post_targets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_metric_snapshots" ADD CONSTRAINT "post_metric_snapshots_network_post_id_network_posts_id_fk" FOREIGN KEY ("network_post_id") REFERENCES "public"."network_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_metric_snapshots" ADD CONSTRAINT "post_metric_snapshots_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "network_comments_ws_platform_comment_idx" ON "network_comments" USING btree ("workspace_id","platform","platform_comment_id");--> statement-breakpoint
CREATE INDEX "network_comments_post_idx" ON "network_comments" USING btree ("network_post_id","commented_at");--> statement-breakpoint
CREATE UNIQUE INDEX "network_posts_ws_platform_post_idx" ON "network_posts" USING btree ("workspace_id","platform","platform_post_id");--> statement-breakpoint
CREATE INDEX "network_posts_ws_platform_published_idx" ON "network_posts" USING btree ("workspace_id","platform","published_at");--> statement-breakpoint
CREATE INDEX "post_metric_snapshots_post_idx" ON "post_metric_snapshots" USING btree ("network_post_id","taken_at");
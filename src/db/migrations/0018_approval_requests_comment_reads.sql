CREATE TABLE "comment_reads" (
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"comment_id" text NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "comment_reads_workspace_id_user_id_platform_comment_id_pk" PRIMARY KEY("workspace_id","user_id","platform","comment_id")
);
--> statement-breakpoint
ALTER TABLE "drafts" ADD COLUMN "requested_by_user" uuid;--> statement-breakpoint
ALTER TABLE "drafts" ADD COLUMN "requested_by_key" uuid;--> statement-breakpoint
ALTER TABLE "comment_reads" ADD CONSTRAINT "comment_reads_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_reads" ADD CONSTRAINT "comment_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comment_reads_member_idx" ON "comment_reads" USING btree ("workspace_id","user_id","read_at");--> statement-breakpoint
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_requested_by_user_users_id_fk" FOREIGN KEY ("requested_by_user") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_requested_by_key_api_keys_id_fk" FOREIGN KEY ("requested_by_key") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;
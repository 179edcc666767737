CREATE TABLE "oauth_entities" (
	"model" text NOT NULL,
	"id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"uid" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_entities_model_id_pk" PRIMARY KEY("model","id")
);
--> statement-breakpoint
CREATE TABLE "oauth_revoked_grants" (
	"grant_id" text PRIMARY KEY NOT NULL,
	"revoked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "oauth_entities_grant_idx" ON "oauth_entities" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oauth_entities_uid_idx" ON "oauth_entities" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "oauth_entities_expires_idx" ON "oauth_entities" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "oauth_revoked_grants_expires_idx" ON "oauth_revoked_grants" USING btree ("expires_at");
CREATE TABLE "posting_queues" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"time_zone" text,
	"slots" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"platforms" jsonb,
	"paused" boolean DEFAULT false NOT NULL,
	"paused_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "queue_slots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"queue_id" uuid NOT NULL,
	"slot_at" timestamp with time zone NOT NULL,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "scheduled_posts" ADD COLUMN "queue_slot_id" uuid;--> statement-breakpoint
ALTER TABLE "scheduled_posts" ADD COLUMN "held" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "posting_queues" ADD CONSTRAINT "posting_queues_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_slots" ADD CONSTRAINT "queue_slots_queue_id_posting_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."posting_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "posting_queues_ws_name_idx" ON "posting_queues" USING btree ("workspace_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "queue_slots_queue_at_idx" ON "queue_slots" USING btree ("queue_id","slot_at") WHERE "queue_slots"."released_at" is null;--> statement-breakpoint
ALTER TABLE "scheduled_posts" ADD CONSTRAINT "scheduled_posts_queue_slot_id_queue_slots_id_fk" FOREIGN KEY ("queue_slot_id") REFERENCES "public"."queue_slots"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scheduled_posts_queue_slot_idx" ON "scheduled_posts" USING btree ("queue_slot_id");
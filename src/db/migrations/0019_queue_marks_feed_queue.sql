ALTER TABLE "feeds" ADD COLUMN "queue" text;--> statement-breakpoint
ALTER TABLE "posting_queues" ADD COLUMN "filled_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "posting_queues" ADD COLUMN "filled_to" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "posting_queues" ADD COLUMN "filled_zone" text;
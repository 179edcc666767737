ALTER TABLE "posts" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "reply_parts" jsonb;--> statement-breakpoint
-- Requests claimed before the lease existed: ten minutes from their last write, so one stuck since then can be retried.
UPDATE "posts" SET "lease_until" = "updated_at" + interval '10 minutes' WHERE "status" = 'running' AND "idempotency_key" IS NOT NULL;

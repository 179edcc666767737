DROP INDEX "scheduled_post_events_sp_idx";--> statement-breakpoint
ALTER TABLE "scheduled_post_events" ADD COLUMN "seq" bigserial NOT NULL;--> statement-breakpoint
CREATE INDEX "scheduled_post_events_sp_idx" ON "scheduled_post_events" USING btree ("scheduled_post_id","seq");
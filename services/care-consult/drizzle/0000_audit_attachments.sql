CREATE TABLE "attachments" (
	"tenant_id" text NOT NULL,
	"id" uuid NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"stored_name" text NOT NULL,
	"media_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "attachments_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"tenant_id" text NOT NULL,
	"id" uuid NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"actor_id" text NOT NULL,
	"action" text NOT NULL,
	"resource_type" text NOT NULL,
	"resource_id" text,
	"outcome" text NOT NULL,
	"request_id" text,
	"meta" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "audit_events_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE INDEX "attachments_tenant_owner_time_idx" ON "attachments" USING btree ("tenant_id","owner_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_tenant_time_idx" ON "audit_events" USING btree ("tenant_id","occurred_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_tenant_actor_time_idx" ON "audit_events" USING btree ("tenant_id","actor_id","occurred_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_tenant_action_time_idx" ON "audit_events" USING btree ("tenant_id","action","occurred_at" DESC NULLS LAST);
CREATE TABLE "chat_checkpoints" (
	"tenant_id" text NOT NULL,
	"thread_id" text NOT NULL,
	"checkpoint_id" uuid NOT NULL,
	"parent_id" uuid,
	"seq" integer NOT NULL,
	"owner_id" text NOT NULL,
	"agent_id" text,
	"status" text NOT NULL,
	"provider" text,
	"model" text,
	"messages" jsonb NOT NULL,
	"tool_calls" jsonb NOT NULL,
	"suggestions" jsonb NOT NULL,
	"refusal" jsonb,
	"error" jsonb,
	"started_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "chat_checkpoints_tenant_id_thread_id_checkpoint_id_pk" PRIMARY KEY("tenant_id","thread_id","checkpoint_id")
);
--> statement-breakpoint
CREATE TABLE "chat_threads" (
	"tenant_id" text NOT NULL,
	"thread_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"agent_id" text,
	"last_checkpoint_id" uuid,
	"turns" integer DEFAULT 0 NOT NULL,
	"busy_turn" uuid,
	"busy_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "chat_threads_tenant_id_thread_id_pk" PRIMARY KEY("tenant_id","thread_id")
);
--> statement-breakpoint
CREATE INDEX "chat_checkpoints_tenant_thread_seq_idx" ON "chat_checkpoints" USING btree ("tenant_id","thread_id","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "chat_threads_tenant_owner_idx" ON "chat_threads" USING btree ("tenant_id","owner_id","updated_at" DESC NULLS LAST);
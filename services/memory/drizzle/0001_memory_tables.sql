CREATE TABLE "memories" (
	"tenant_id" text NOT NULL,
	"id" text NOT NULL,
	"tier" text NOT NULL,
	"type" text NOT NULL,
	"source" text NOT NULL,
	"text" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"dim" integer NOT NULL,
	"embedding" vector NOT NULL,
	"tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', "text")) STORED,
	"strength" double precision DEFAULT 0.5 NOT NULL,
	"positive_count" integer DEFAULT 0 NOT NULL,
	"negative_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"suppressed_at" timestamp with time zone,
	"resolved_at" timestamp with time zone,
	"forgotten_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"merged_into" text,
	"merged_at" timestamp with time zone,
	"consolidated_into" text,
	"decayed_at" timestamp with time zone,
	CONSTRAINT "memories_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "memory_access" (
	"tenant_id" text NOT NULL,
	"memory_id" text NOT NULL,
	"access_count" integer DEFAULT 0 NOT NULL,
	"last_accessed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memory_access_tenant_id_memory_id_pk" PRIMARY KEY("tenant_id","memory_id")
);
--> statement-breakpoint
CREATE TABLE "memory_links" (
	"tenant_id" text NOT NULL,
	"from_id" text NOT NULL,
	"relation" text NOT NULL,
	"to_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memory_links_tenant_id_from_id_relation_to_id_pk" PRIMARY KEY("tenant_id","from_id","relation","to_id")
);
--> statement-breakpoint
CREATE TABLE "partitions" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"embedding_model" text NOT NULL,
	"dimension" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_reflect_at" timestamp with time zone,
	"last_reflect_report" jsonb
);
--> statement-breakpoint
CREATE TABLE "reminders" (
	"tenant_id" text NOT NULL,
	"id" text NOT NULL,
	"text" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"dim" integer NOT NULL,
	"embedding" vector NOT NULL,
	"state" text DEFAULT 'PENDING' NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"fired_at" timestamp with time zone,
	"memory_id" text,
	CONSTRAINT "reminders_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE INDEX "memories_tenant_tier_created_idx" ON "memories" USING btree ("tenant_id","tier","created_at");--> statement-breakpoint
CREATE INDEX "memories_tsv_idx" ON "memories" USING gin ("tsv");--> statement-breakpoint
CREATE INDEX "memory_links_to_idx" ON "memory_links" USING btree ("tenant_id","to_id");--> statement-breakpoint
CREATE INDEX "reminders_tenant_state_due_idx" ON "reminders" USING btree ("tenant_id","state","due_at");--> statement-breakpoint
CREATE INDEX "reminders_pending_due_idx" ON "reminders" USING btree ("due_at") WHERE state = 'PENDING';
CREATE TABLE "mcp_tool_views" (
	"server_id" text NOT NULL,
	"user_id" text NOT NULL,
	"tool" text NOT NULL,
	"reviewed_hash" text NOT NULL,
	"reviewed_definition" json NOT NULL,
	"seen_hash" text NOT NULL,
	"seen_definition" json NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mcp_tool_views_server_id_user_id_tool_pk" PRIMARY KEY("server_id","user_id","tool")
);
--> statement-breakpoint
ALTER TABLE "mcp_tool_views" ADD CONSTRAINT "mcp_tool_views_server_id_mcp_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."mcp_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_tool_views" ADD CONSTRAINT "mcp_tool_views_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mcp_tool_views_user_idx" ON "mcp_tool_views" USING btree ("user_id");
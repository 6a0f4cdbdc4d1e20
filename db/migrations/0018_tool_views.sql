CREATE TABLE `mcp_tool_views` (
	`server_id` text NOT NULL,
	`user_id` text NOT NULL,
	`tool` text NOT NULL,
	`reviewed_hash` text NOT NULL,
	`reviewed_definition` text NOT NULL,
	`seen_hash` text NOT NULL,
	`seen_definition` text NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`server_id`, `user_id`, `tool`),
	FOREIGN KEY (`server_id`) REFERENCES `mcp_servers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `mcp_tool_views_user_idx` ON `mcp_tool_views` (`user_id`);
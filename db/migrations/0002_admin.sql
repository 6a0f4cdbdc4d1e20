CREATE TABLE `mcp_tools` (
	`server_id` text NOT NULL,
	`tool` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`approval` text,
	`reviewed_hash` text NOT NULL,
	`reviewed_definition` text NOT NULL,
	`changed` integer DEFAULT false NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`server_id`, `tool`),
	FOREIGN KEY (`server_id`) REFERENCES `mcp_servers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `providers` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`base_url` text NOT NULL,
	`api_key_encrypted` text,
	`models` text DEFAULT '[]' NOT NULL,
	`tool_calling` text DEFAULT 'native' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `providers_name_unique` ON `providers` (`name`);
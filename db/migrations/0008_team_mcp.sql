CREATE TABLE `mcp_oauth_clients` (
	`issuer` text PRIMARY KEY NOT NULL,
	`client` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `mcp_user_secrets` (
	`user_id` text NOT NULL,
	`server_id` text NOT NULL,
	`kind` text NOT NULL,
	`key` text NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`user_id`, `server_id`, `kind`, `key`),
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`server_id`) REFERENCES `mcp_servers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `providers` ADD `allow` text DEFAULT '["*"]' NOT NULL;--> statement-breakpoint
ALTER TABLE `providers` ADD `model_allow` text DEFAULT '{}' NOT NULL;
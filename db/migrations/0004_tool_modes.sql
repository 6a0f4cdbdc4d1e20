ALTER TABLE `conversations` ADD `tool_mode` text DEFAULT 'auto' NOT NULL;--> statement-breakpoint
ALTER TABLE `conversations` ADD `tool_servers` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `disabled_tools` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `conversations` ADD `max_steps` integer;--> statement-breakpoint
ALTER TABLE `conversations` ADD `max_tool_calls` integer;
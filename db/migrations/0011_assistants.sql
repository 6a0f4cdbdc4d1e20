CREATE TABLE `assistants` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`instructions` text NOT NULL,
	`model` text,
	`tool_mode` text,
	`servers` text,
	`temperature` real,
	`shared` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `assistants_user_idx` ON `assistants` (`user_id`);--> statement-breakpoint
CREATE INDEX `assistants_shared_idx` ON `assistants` (`shared`);--> statement-breakpoint
ALTER TABLE `conversations` ADD `assistant_id` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `instructions` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `temperature` real;
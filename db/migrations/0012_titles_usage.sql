ALTER TABLE `conversations` ADD `title_source` text DEFAULT 'auto' NOT NULL;--> statement-breakpoint
ALTER TABLE `providers` ADD `prices` text DEFAULT '{}' NOT NULL;
-- Edited by hand: SQLite cannot ADD a column whose default is an expression, so the table is rebuilt (it holds a
-- handful of rows). updated_at is the version the admin settings and SSO forms send back as If-Match.
CREATE TABLE `__new_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_settings` (`key`, `value`, `updated_at`)
  SELECT `key`, `value`, CAST(unixepoch('subsec') * 1000 AS integer) FROM `settings`;
--> statement-breakpoint
DROP TABLE `settings`;
--> statement-breakpoint
ALTER TABLE `__new_settings` RENAME TO `settings`;

-- Written by hand in drizzle-kit's table-rebuild form: SQLite cannot add NOT NULL columns without a
-- constant default, and existing rows need their kind and last-seen time derived from what they hold.
CREATE TABLE `__new_audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`user_id` text,
	`email` text,
	`action` text NOT NULL,
	`target` text,
	`outcome` text NOT NULL,
	`detail` text,
	`kind` text NOT NULL,
	`count` integer DEFAULT 1 NOT NULL,
	`last_at` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_audit_log` (`id`, `created_at`, `user_id`, `email`, `action`, `target`, `outcome`, `detail`, `kind`, `count`, `last_at`)
SELECT `id`, `created_at`, `user_id`, `email`, `action`, `target`, `outcome`, `detail`,
  CASE WHEN `user_id` IS NULL THEN 'anonymous' WHEN `outcome` = 'denied' THEN 'refused' ELSE 'admin' END, 1, `created_at`
FROM `audit_log`;
--> statement-breakpoint
DROP TABLE `audit_log`;
--> statement-breakpoint
ALTER TABLE `__new_audit_log` RENAME TO `audit_log`;
--> statement-breakpoint
CREATE INDEX `audit_log_at_idx` ON `audit_log` (`created_at`);
--> statement-breakpoint
CREATE INDEX `audit_log_kind_last_idx` ON `audit_log` (`kind`,`last_at`);
--> statement-breakpoint
CREATE INDEX `audit_log_repeat_idx` ON `audit_log` (`action`,`user_id`,`last_at`);

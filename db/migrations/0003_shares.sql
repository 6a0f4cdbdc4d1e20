CREATE TABLE `shares` (
	`token` text PRIMARY KEY NOT NULL,
	`conversation_id` text NOT NULL,
	`user_id` text NOT NULL,
	`title` text NOT NULL,
	`snapshot` text NOT NULL,
	`include_tool_details` integer DEFAULT false NOT NULL,
	`owner_name` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `shares_user_idx` ON `shares` (`user_id`,`created_at`);--> statement-breakpoint
CREATE VIRTUAL TABLE `messages_fts` USING fts5(`text`, `conversation_id` UNINDEXED, `message_id` UNINDEXED, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `messages_fts_insert` AFTER INSERT ON `messages` BEGIN
  INSERT INTO `messages_fts` (`rowid`, `text`, `conversation_id`, `message_id`)
  SELECT new.rowid, coalesce(group_concat(json_extract(value, '$.text'), ' '), ''), new.conversation_id, new.id
  FROM json_each(new.parts) WHERE json_extract(value, '$.type') = 'text';
END;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_delete` AFTER DELETE ON `messages` BEGIN
  DELETE FROM `messages_fts` WHERE `rowid` = old.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_update` AFTER UPDATE OF `parts` ON `messages` BEGIN
  DELETE FROM `messages_fts` WHERE `rowid` = old.rowid;
  INSERT INTO `messages_fts` (`rowid`, `text`, `conversation_id`, `message_id`)
  SELECT new.rowid, coalesce(group_concat(json_extract(value, '$.text'), ' '), ''), new.conversation_id, new.id
  FROM json_each(new.parts) WHERE json_extract(value, '$.type') = 'text';
END;
--> statement-breakpoint
INSERT INTO `messages_fts` (`rowid`, `text`, `conversation_id`, `message_id`)
SELECT m.rowid, coalesce((SELECT group_concat(json_extract(value, '$.text'), ' ') FROM json_each(m.parts) WHERE json_extract(value, '$.type') = 'text'), ''), m.conversation_id, m.id
FROM `messages` m;

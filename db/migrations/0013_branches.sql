ALTER TABLE `conversations` ADD `leaf_id` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `parent_id` text;--> statement-breakpoint
CREATE INDEX `messages_conv_parent_idx` ON `messages` (`conversation_id`,`parent_id`,`seq`);--> statement-breakpoint
-- Each conversation's existing list becomes a chain in order: every message follows the one before it.
UPDATE `messages` SET `parent_id` = (
  SELECT p.`id` FROM `messages` p
  WHERE p.`conversation_id` = `messages`.`conversation_id` AND p.`seq` < `messages`.`seq`
  ORDER BY p.`seq` DESC LIMIT 1
);--> statement-breakpoint
-- The selected path ends at the newest message.
UPDATE `conversations` SET `leaf_id` = (
  SELECT m.`id` FROM `messages` m WHERE m.`conversation_id` = `conversations`.`id` ORDER BY m.`seq` DESC LIMIT 1
);
--> statement-breakpoint
-- A message written also becomes the end of the selected path (a new message, a new answer), in the same statement.
DROP TRIGGER IF EXISTS `messages_touch_insert`;--> statement-breakpoint
CREATE TRIGGER `messages_touch_insert` AFTER INSERT ON `messages` BEGIN
  UPDATE `conversations` SET `updated_at` = new.created_at, `leaf_id` = new.id WHERE `id` = new.conversation_id;
END;

-- A message written bumps its conversation's updated_at, in the same statement (no extra query per turn).
CREATE TRIGGER `messages_touch_insert` AFTER INSERT ON `messages` BEGIN
  UPDATE `conversations` SET `updated_at` = new.created_at WHERE `id` = new.conversation_id;
END;
--> statement-breakpoint
CREATE TRIGGER `messages_touch_update` AFTER UPDATE OF `parts` ON `messages` BEGIN
  UPDATE `conversations` SET `updated_at` = (unixepoch('subsec') * 1000) WHERE `id` = new.conversation_id;
END;

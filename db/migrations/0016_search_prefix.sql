-- Search reads the first 200,000 characters of a message's text, as on Postgres (db/migrations-pg/0002, where a
-- longer text cannot be indexed; SEARCH_TEXT_CHARS in db/search-text.ts), and a U+0000 in it as a space, as
-- Postgres's message_text() does (substr() would end the text at it). Messages indexed before keep their index
-- until they are written again.
DROP TRIGGER `messages_fts_insert`;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_insert` AFTER INSERT ON `messages` BEGIN
  INSERT INTO `messages_fts` (`rowid`, `text`, `conversation_id`, `message_id`)
  SELECT new.rowid, substr(coalesce(group_concat(json_extract(value, '$.text'), ' '), ''), 1, 200000), new.conversation_id, new.id
  FROM json_each(replace(new.parts, '\u0000', '\u0020')) WHERE json_extract(value, '$.type') = 'text';
END;
--> statement-breakpoint
DROP TRIGGER `messages_fts_update`;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_update` AFTER UPDATE OF `parts` ON `messages` BEGIN
  DELETE FROM `messages_fts` WHERE `rowid` = old.rowid;
  INSERT INTO `messages_fts` (`rowid`, `text`, `conversation_id`, `message_id`)
  SELECT new.rowid, substr(coalesce(group_concat(json_extract(value, '$.text'), ' '), ''), 1, 200000), new.conversation_id, new.id
  FROM json_each(replace(new.parts, '\u0000', '\u0020')) WHERE json_extract(value, '$.type') = 'text';
END;

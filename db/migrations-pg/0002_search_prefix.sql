-- Written by hand. Search reads the first 200,000 characters of a message's text (SEARCH_TEXT_CHARS in
-- db/search-text.ts; db/migrations/0016 does the same on SQLite): a tsvector holds at most 1 MB, so the index of a
-- longer answer, tool-heavy turn or imported message could fail ("string is too long for tsvector"), and the
-- message with it. At most 4 bytes of tsvector per character of text: 200,000 characters always fit.
-- db/search-pg.ts queries message_search_vector(parts), the expression the index is built on.
CREATE FUNCTION "message_search_vector"("parts" json) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT to_tsvector('simple'::regconfig, "search_text"(left("message_text"(parts), 200000)))
  $$;
--> statement-breakpoint
DROP INDEX "messages_search_idx";
--> statement-breakpoint
CREATE INDEX "messages_search_idx" ON "messages" USING gin ("message_search_vector"("parts"));

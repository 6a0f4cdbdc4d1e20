/**
 * Conversation search on Postgres: the same results, in the same shape, as searchConversations in
 * db/queries/conversation-search.ts does with SQLite's FTS5 (own conversations whose title or the text of
 * a message on the selected path matches; each word of the query a prefix, Chinese or Japanese ones a
 * substring; the snippet marks matches with \u0002…\u0003).
 * Message text is matched with `message_search_vector(parts)`, the expression the GIN index messages_search_idx
 * is built on (db/migrations-pg): `to_tsvector('simple', search_text(…))` of the first SEARCH_TEXT_CHARS
 * characters of message_text(parts); search_text folds case and diacritics and reads punctuation as spaces as
 * FTS5's unicode61 does (db/search-text.ts), and the snippet is FTS5's, rebuilt in JS over the same characters.
 * Chinese or Japanese words are looked for in those same characters.
 */
import { sql } from 'drizzle-orm';
import type { PgDb } from '@/db/client-pg';
import { mergeSearchHits, type SearchHit, selectedPathsOfHits } from '@/db/queries/conversation-search';
import { queryTerms, SEARCH_TEXT_CHARS, searchSnippet, tsQueryOf } from '@/db/search-text';

export async function searchConversationsPg(
  db: PgDb,
  userId: string,
  q: string,
  limit = 30,
): Promise<SearchHit[]> {
  const query = tsQueryOf(q);
  const { runs } = queryTerms(q);
  if (!query && !runs.length) return [];
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const [messageRows, titleRows] = await Promise.all([
    db.execute<{
      id: string;
      title: string;
      updated_ms: number;
      message_id: string;
      body: string;
    }>(sql`
      with recursive hits as (
        select c.id, c.title, c.updated_at, m.id as message_id
        from messages m join conversations c on c.id = m.conversation_id
        where c.user_id = ${userId}${
          query
            ? sql` and message_search_vector(m.parts) @@ to_tsquery('simple'::regconfig, ${query})`
            : sql``
        }${sql.join(
          runs.map(
            (r) =>
              sql` and strpos(lower(left(message_text(m.parts), ${SEARCH_TEXT_CHARS})), lower(${r})) > 0`,
          ),
          sql``,
        )}
      ),
      ${selectedPathsOfHits},
      found as (
        select h.* from hits h
        where exists (select 1 from path p where p.conversation_id = h.id and p.id = h.message_id)
        order by h.updated_at desc limit ${limit * 3}
      )
      select f.id, f.title, f.message_id,
             (extract(epoch from f.updated_at) * 1000)::float8 as updated_ms,
             left(message_text(m.parts), ${SEARCH_TEXT_CHARS}) as body
      from found f join messages m on m.conversation_id = f.id and m.id = f.message_id
      order by f.updated_at desc`),
    db.execute<{ id: string; title: string; updated_ms: number }>(sql`
      select id, title, (extract(epoch from updated_at) * 1000)::float8 as updated_ms from conversations
      where user_id = ${userId} and title ilike ${like} escape '\\' order by updated_at desc limit ${limit}`),
  ]);
  return mergeSearchHits(
    titleRows.rows.map((r) => ({ id: r.id, title: r.title, updatedAt: new Date(Math.round(r.updated_ms)) })),
    messageRows.rows.map((r) => ({
      id: r.id,
      title: r.title,
      updatedAt: new Date(Math.round(r.updated_ms)),
      messageId: r.message_id,
      snippet: searchSnippet(r.body, q),
    })),
    limit,
  );
}

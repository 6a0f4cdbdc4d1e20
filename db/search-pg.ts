/**
 * Conversation search on Postgres: the same results, in the same shape, as searchConversations in
 * db/queries/conversations.ts does with SQLite's FTS5 (own conversations whose title or the text of a message on
 * the selected path matches; each word of the query a prefix; the snippet marks matches with \u0002…\u0003).
 * Message text is matched with `to_tsvector('simple', message_text(parts))`, the expression the GIN index
 * messages_search_idx is built on (db/migrations-pg).
 */
import { sql } from 'drizzle-orm';
import type { PgDb } from '@/db/client-pg';
import type { SearchHit } from '@/db/queries/conversations';

/**
 * Turns what a person typed into a tsquery: each word a quoted prefix term, all required, so no syntax leaks in
 * (the words are letters, digits and `_` only, so a quote can never reach the query).
 */
export function tsQuery(q: string): string | null {
  const words = q.match(/[\p{L}\p{N}_]+/gu)?.slice(0, 10);
  return words?.length ? words.map((w) => `'${w}':*`).join(' & ') : null;
}

/** ts_headline's options: matches between \u0002 and \u0003, one fragment of about 12 words (FTS5's snippet). */
const HEADLINE =
  'StartSel="\u0002", StopSel="\u0003", MaxFragments=1, MaxWords=12, MinWords=4, FragmentDelimiter="…"';

export async function searchConversationsPg(
  db: PgDb,
  userId: string,
  q: string,
  limit = 30,
): Promise<SearchHit[]> {
  const query = tsQuery(q);
  if (!query) return [];
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const [messageRows, titleRows] = await Promise.all([
    db.execute<{
      id: string;
      title: string;
      updated_ms: number;
      message_id: string;
      snippet: string | null;
    }>(sql`
      with recursive hits as (
        select c.id, c.title, c.updated_at, m.id as message_id
        from messages m join conversations c on c.id = m.conversation_id
        where c.user_id = ${userId}
          and to_tsvector('simple'::regconfig, message_text(m.parts)) @@ to_tsquery('simple'::regconfig, ${query})
      ),
      path(conversation_id, id, depth) as (
        select c.id, coalesce(
                 (select m.id from messages m where m.conversation_id = c.id and m.id = c.leaf_id),
                 (select m.id from messages m where m.conversation_id = c.id order by m.seq desc limit 1)), 0
        from conversations c where c.id in (select id from hits)
        union all
        select p.conversation_id, m.parent_id, p.depth + 1 from path p
        join messages m on m.conversation_id = p.conversation_id and m.id = p.id
        where m.parent_id is not null and p.depth < 1000000
      ),
      found as (
        select h.* from hits h
        where exists (select 1 from path p where p.conversation_id = h.id and p.id = h.message_id)
        order by h.updated_at desc limit ${limit * 3}
      )
      select f.id, f.title, f.message_id,
             (extract(epoch from f.updated_at) * 1000)::float8 as updated_ms,
             ts_headline('simple'::regconfig, message_text(m.parts), to_tsquery('simple'::regconfig, ${query}), ${HEADLINE}) as snippet
      from found f join messages m on m.conversation_id = f.id and m.id = f.message_id
      order by f.updated_at desc`),
    db.execute<{ id: string; title: string; updated_ms: number }>(sql`
      select id, title, (extract(epoch from updated_at) * 1000)::float8 as updated_ms from conversations
      where user_id = ${userId} and title ilike ${like} escape '\\' order by updated_at desc limit ${limit}`),
  ]);
  const hits = new Map<string, SearchHit>();
  for (const r of titleRows.rows)
    hits.set(r.id, {
      id: r.id,
      title: r.title,
      updatedAt: new Date(Math.round(r.updated_ms)),
      messageId: null,
      snippet: r.title,
    });
  for (const r of messageRows.rows) {
    if (hits.has(r.id) && hits.get(r.id)?.messageId) continue;
    const prior = hits.get(r.id);
    hits.set(r.id, {
      id: r.id,
      title: r.title,
      updatedAt: new Date(Math.round(r.updated_ms)),
      messageId: r.message_id,
      snippet: r.snippet || prior?.snippet || r.title,
    });
  }
  return [...hits.values()].sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime()).slice(0, limit);
}

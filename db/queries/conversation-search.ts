import 'server-only';
import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import type { PgDb } from '@/db/client-pg';
import { searchConversationsPg } from '@/db/search-pg';
import { isSqlite, rawRows } from '@/db/run';
import { queryTerms, searchSnippet } from '@/db/search-text';

export type SearchHit = {
  id: string;
  title: string;
  updatedAt: Date;
  messageId: string | null;
  snippet: string;
};

/**
 * The words of what a person typed as an FTS5 query: each a quoted prefix term, so no syntax leaks in. Its
 * Chinese or Japanese words (queryTerms' runs) are not in it: they are looked for as substrings.
 */
export function ftsQuery(q: string): string | null {
  const { words } = queryTerms(q);
  return words.length ? words.map((w) => `"${w}"*`).join(' ') : null;
}

/**
 * The search's `path` CTE (both databases): every message on the selected path of each conversation in
 * the `hits` CTE, walked up from its selected leaf (or its newest message), so a hit off that path drops.
 */
export const selectedPathsOfHits = sql.raw(`path(conversation_id, id, depth) as (
      select c.id, coalesce(
               (select m.id from messages m where m.conversation_id = c.id and m.id = c.leaf_id),
               (select m.id from messages m where m.conversation_id = c.id order by m.seq desc limit 1)), 0
      from conversations c where c.id in (select id from hits)
      union all
      select p.conversation_id, m.parent_id, p.depth + 1 from path p
      join messages m on m.conversation_id = p.conversation_id and m.id = p.id
      where m.parent_id is not null and p.depth < 1000000
    )`);

/**
 * Own conversations whose title or the text of a message on the selected path matches (other versions
 * are not searched); the snippet marks matches with \u0002…\u0003.
 */
export async function searchConversations(
  db: Db,
  userId: string,
  q: string,
  limit = 30,
): Promise<SearchHit[]> {
  if (!isSqlite(db)) return searchConversationsPg(db as unknown as PgDb, userId, q, limit);
  const fts = ftsQuery(q);
  const { runs } = queryTerms(q);
  if (!fts && !runs.length) return [];
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  // Without words to match, the user's own messages are read (through their index) for the runs.
  const found = fts
    ? sql`messages_fts f join conversations c on c.id = f.conversation_id
      where messages_fts match ${fts} and c.user_id = ${userId}`
    : sql`conversations c join messages m on m.conversation_id = c.id
      join messages_fts f on f.rowid = m.rowid where c.user_id = ${userId}`;
  const withRuns = sql.join(
    runs.map((r) => sql` and instr(lower(f.text), lower(${r})) > 0`),
    sql``,
  );
  const rows = await rawRows<{
    id: string;
    title: string;
    updated_at: number;
    message_id: string | null;
    snippet: string | null;
  }>(
    db,
    sql`
    with recursive hits as (
      select c.id, c.title, c.updated_at, f.message_id,
             ${runs.length ? sql`f.text` : sql`snippet(messages_fts, 0, char(2), char(3), '…', 12)`} as snippet
      from ${found}${withRuns}
    ),
    ${selectedPathsOfHits}
    select h.* from hits h
    where exists (select 1 from path p where p.conversation_id = h.id and p.id = h.message_id)
    order by h.updated_at desc limit ${limit * 3}`,
  );
  const titleRows = await rawRows<{ id: string; title: string; updated_at: number }>(
    db,
    sql`
    select id, title, updated_at from conversations where user_id = ${userId} and title like ${like} escape '\\' order by updated_at desc limit ${limit}`,
  );
  return mergeSearchHits(
    titleRows.map((r) => ({ id: r.id, title: r.title, updatedAt: new Date(r.updated_at) })),
    rows.map((r) => ({
      id: r.id,
      title: r.title,
      updatedAt: new Date(r.updated_at),
      messageId: r.message_id,
      // With runs the row holds the message's text, and the snippet is made here (FTS5's marks only its words).
      snippet: runs.length && r.snippet ? searchSnippet(r.snippet, q) : r.snippet,
    })),
    limit,
  );
}

type TitleHit = Pick<SearchHit, 'id' | 'title' | 'updatedAt'>;
type MessageHit = TitleHit & { messageId: string | null; snippet: string | null };

/**
 * One hit per conversation, newest first: a message match (with its snippet) wins over a title match,
 * the first message match of a conversation over later ones; a title match's snippet is the title.
 */
export function mergeSearchHits(titles: TitleHit[], messageHits: MessageHit[], limit: number): SearchHit[] {
  const hits = new Map<string, SearchHit>();
  for (const r of titles) hits.set(r.id, { ...r, messageId: null, snippet: r.title });
  for (const r of messageHits) {
    const prior = hits.get(r.id);
    if (prior?.messageId) continue;
    hits.set(r.id, { ...r, snippet: r.snippet || prior?.snippet || r.title });
  }
  return [...hits.values()].sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime()).slice(0, limit);
}

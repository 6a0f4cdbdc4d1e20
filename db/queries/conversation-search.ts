import 'server-only';
import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import type { PgDb } from '@/db/client-pg';
import { searchConversationsPg } from '@/db/search-pg';
import { isSqlite, rawRows } from '@/db/run';

export type SearchHit = {
  id: string;
  title: string;
  updatedAt: Date;
  messageId: string | null;
  snippet: string;
};

/** Turns what a person typed into an FTS5 query: each word a quoted prefix term, so no syntax leaks in. */
export function ftsQuery(q: string): string | null {
  const words = q.match(/[\p{L}\p{N}_]+/gu)?.slice(0, 10);
  return words?.length ? words.map((w) => `"${w}"*`).join(' ') : null;
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
  if (!fts) return [];
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
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
             snippet(messages_fts, 0, char(2), char(3), '…', 12) as snippet
      from messages_fts f join conversations c on c.id = f.conversation_id
      where messages_fts match ${fts} and c.user_id = ${userId}
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
      snippet: r.snippet,
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

import 'server-only';
import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { isSqlite, rawRows, rawRun, textContains } from '@/db/run';
import { conversations, messages } from '@/db/tables';

/**
 * Turns cut short by a stopped process (a crash, kill -9): their questions have no answer. The running
 * turns' registry (app/_server/running-turns.ts) finds them and gives each an answer marked interrupted.
 */

/** User messages still without an answer, or ending the selected path (a regenerate cut short). */
const unansweredWhere = sql`m.role = 'user'
        and (
          not exists (select 1 from ${messages} c where c.conversation_id = m.conversation_id and c.parent_id = m.id)
          -- a regenerate cut short: the question ends the selected path, its earlier answers beside it
          or m.id = (select leaf_id from ${conversations} where id = m.conversation_id)
        )`;

/** The query of {@link unansweredConversations} (its plan is checked in db/dialects-conversations.test.ts). */
export function unansweredSince(db: Db, since: Date) {
  const after = isSqlite(db) ? since.getTime() : since;
  // No `distinct`: with it SQLite would rather walk every message in conversation order.
  // unansweredWhere starts with `m.role = 'user'`: the partial index's own condition.
  return sql`select m.conversation_id as id from ${messages} m
      where ${unansweredWhere} and m.created_at > ${after}`;
}

/**
 * The conversations holding a question asked after `since` without an answer (a running turn's, or one
 * cut by a crash). Reads only the questions since then (an index on them), not the whole table.
 */
export async function unansweredConversations(db: Db, since: Date): Promise<string[]> {
  const rows = await rawRows<{ id: string }>(db, unansweredSince(db, since));
  return [...new Set(rows.map((r) => r.id))];
}

/**
 * Every user message still without an answer, or ending the selected path (a regenerate), whose turn is
 * not running any more lost its answer (a crash, kill -9): at start on one process, all of them; with
 * other instances, only those of `only` (conversations whose turn no instance holds). Each gets an empty
 * answer marked interrupted, so the UI shows what happened and offers Retry; the new answer ends the
 * selected path. An answer continued after its approvals that lost its turn is marked interrupted too
 * ({@link markCutContinuations}). Returns how many.
 */
export async function markUnansweredTurns(db: Db, reason: string, only?: readonly string[]): Promise<number> {
  if (only && !only.length) return 0;
  // Each new answer becomes its conversation's selected leaf (the insert trigger).
  const within = only
    ? sql` and m.conversation_id in (${sql.join(
        only.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  const unanswered = sql`
      from ${messages} m
      where ${unansweredWhere}${within}`;
  const nextSeq = sql`(select max(seq) + 1 from ${messages} where conversation_id = m.conversation_id)`;
  const columns = sql`insert into ${messages} (id, conversation_id, role, parts, metadata, parent_id, seq, created_at)`;
  const cut = await markCutContinuations(db, reason, only);
  return (
    cut +
    (await rawRun(
      db,
      isSqlite(db)
        ? sql`${columns}
      select 'interrupted-' || m.seq || '-' || lower(hex(randomblob(6))), m.conversation_id, 'assistant', '[]',
             json_object('interrupted', json('true'), 'error', ${reason}), m.id, ${nextSeq},
             unixepoch('subsec') * 1000
      ${unanswered}`
        : sql`${columns}
      select 'interrupted-' || m.seq || '-' || substr(md5(random()::text), 1, 12), m.conversation_id, 'assistant',
             '[]'::json, json_build_object('interrupted', true, 'error', ${reason}::text), m.id, ${nextSeq}, now()
      ${unanswered}`,
    ))
  );
}

/**
 * Answers continued after a person answered their tool approvals, cut by a stopped process: the answer
 * was stored with its calls answered (approval-responded) before the turn ran them, and is stored again
 * only at the turn's end, when every such call has ended (run, failed or denied). One still holding an
 * answered call, and not marked interrupted (Stop stores that), lost its turn: it is marked interrupted
 * now, so its calls show as cancelled, not running for good (they cannot be answered again).
 * Only the conversations' selected leaves are read (a continued answer is its conversation's leaf): one
 * message per conversation, not every answer's parts (200,000 answers of 2 KB took 1.3 s to scan, the
 * process blocked meanwhile on SQLite). An answer whose person switched to another branch while it ran,
 * and then lost its turn, is left as it is.
 */
async function markCutContinuations(db: Db, reason: string, only?: readonly string[]): Promise<number> {
  const within = only
    ? sql` where id in (${sql.join(
        only.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  const leaves = sql`id in (select leaf_id from ${conversations}${within})`;
  const answered = textContains(db, messages.parts, '"state":"approval-responded"');
  return rawRun(
    db,
    isSqlite(db)
      ? sql`update ${messages}
      set metadata = json_set(coalesce(metadata, '{}'), '$.interrupted', json('true'), '$.error', ${reason})
      where ${leaves} and role = 'assistant' and ${answered}
        and coalesce(json_extract(metadata, '$.interrupted'), 0) = 0`
      : sql`update ${messages}
      set metadata = (coalesce(metadata::jsonb, '{}'::jsonb)
        || jsonb_build_object('interrupted', true, 'error', ${reason}::text))::json
      where ${leaves} and role = 'assistant' and ${answered}
        and coalesce((metadata->>'interrupted')::boolean, false) = false`,
  );
}

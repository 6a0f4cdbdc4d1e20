/**
 * The Postgres mirror of db/schema.ts (used when DATABASE_URL=postgres://…): the same tables, column names,
 * defaults, indexes, unique keys and foreign keys, under the same exported names and property names, so query
 * code written against db/schema.ts runs unchanged here. Every column's JS value type equals the SQLite one
 * (db/schema-pg.test.ts fails to type-check otherwise):
 * - `integer(…, { mode: 'timestamp_ms' })` (a Date) → `timestamptz(3)`: a Date, kept to the millisecond as SQLite
 *   keeps it (a microsecond value read back as a Date would no longer equal itself in a keyset cursor);
 * - `integer(…, { mode: 'boolean' })` → boolean; `real` → double precision (SQLite's REAL is 8 bytes);
 * - `text(…, { mode: 'json' })` → `json`, not `jsonb`: the text is kept as written, key order and all, because
 *   some queries search the serialized JSON (db/queries/files.ts looks for `"id":"…"` in it);
 * - `audit_log.id` (an AUTOINCREMENT rowid) → an identity column (db:copy moves its sequence past the copied ids).
 * Triggers and full-text search are plain SQL appended to the baseline migration (db/migrations-pg/), the search
 * index rebuilt on a bounded prefix of the text in 0002_search_prefix.
 */
export * from './tables-pg/auth';
export * from './tables-pg/chat';
export * from './tables-pg/mcp';
export * from './tables-pg/admin';

/** The shared timestamp columns of the SQLite tables. */
import { sql } from 'drizzle-orm';
import { integer } from 'drizzle-orm/sqlite-core';

export const createdAt = () =>
  integer('created_at', { mode: 'timestamp_ms' }).notNull().default(sql`(unixepoch('subsec') * 1000)`);
export const updatedAt = () =>
  integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(sql`(unixepoch('subsec') * 1000)`);

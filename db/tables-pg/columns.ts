/** The shared timestamp columns of the Postgres tables. */
import { sql } from 'drizzle-orm';
import { timestamp } from 'drizzle-orm/pg-core';

/** A point in time as SQLite's `timestamp_ms` columns hold it: a Date, to the millisecond. */
export const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date', precision: 3 });
export const createdAt = () => instant('created_at').notNull().default(sql`now()`);
export const updatedAt = () => instant('updated_at').notNull().default(sql`now()`);

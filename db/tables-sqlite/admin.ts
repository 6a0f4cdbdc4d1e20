/**
 * The admin tables: instance settings, model providers and the audit log.
 * SQLite: db/schema.ts re-exports them.
 */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createdAt, updatedAt } from './columns';

export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value', { mode: 'json' }).$type<unknown>().notNull(),
  /** When the row was last written: the admin forms' version (If-Match) of the settings and of SSO. */
  updatedAt: updatedAt(),
});

export const providers = sqliteTable('providers', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  baseURL: text('base_url').notNull(),
  /** Sealed with AES-256-GCM under ENCRYPTION_KEY (db/sealing.ts); never returned by the API. */
  apiKeyEncrypted: text('api_key_encrypted'),
  models: text('models', { mode: 'json' }).$type<string[]>().notNull().default([]),
  toolCalling: text('tool_calling', { enum: ['native', 'prompt'] })
    .notNull()
    .default('native'),
  /** Who may use this provider's models: "*", a role or an email (lib/access.ts). */
  allow: text('allow', { mode: 'json' }).$type<string[]>().notNull().default(['*']),
  /** Per model, a narrower list than `allow` (a model not named here follows `allow`). */
  modelAllow: text('model_allow', { mode: 'json' }).$type<Record<string, string[]>>().notNull().default({}),
  /** Models that cannot take images (tool-result images reach them as a note). */
  noVision: text('no_vision', { mode: 'json' }).$type<string[]>().notNull().default([]),
  /** Per model, what 1M input and 1M output tokens cost (USD); a model not named here shows no cost. */
  prices: text('prices', { mode: 'json' })
    .$type<Record<string, { input: number; output: number }>>()
    .notNull()
    .default({}),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Who did what to the admin surface, and which attempts were refused. Each kind is kept and pruned on its
 * own (db/queries/audit.ts), so anonymous traffic can never push admins' actions out of the log.
 */
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** First seen. */
    at: createdAt(),
    userId: text('user_id'),
    email: text('email'),
    action: text('action').notNull(),
    target: text('target'),
    outcome: text('outcome', { enum: ['ok', 'denied', 'failed'] }).notNull(),
    detail: text('detail'),
    /** Retention pool: admin = a signed-in actor's admitted action; refused = a signed-in actor denied; anonymous = no actor. */
    kind: text('kind', { enum: ['admin', 'refused', 'anonymous'] }).notNull(),
    /** Identical failures within a minute of each other share one row: how many, and the last one's time. */
    count: integer('count').notNull().default(1),
    lastAt: integer('last_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_kind_last_idx').on(t.kind, t.lastAt),
    index('audit_log_repeat_idx').on(t.action, t.userId, t.lastAt),
  ],
);

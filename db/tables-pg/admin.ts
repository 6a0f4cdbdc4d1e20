/**
 * The admin tables: instance settings, model providers and the audit log.
 * Postgres: db/schema-pg.ts re-exports them.
 */
import { index, integer, json, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, instant, updatedAt } from './columns';

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: json('value').$type<unknown>().notNull(),
  /** When the row was last written: the admin forms' version (If-Match) of the settings and of SSO. */
  updatedAt: updatedAt(),
});

export const providers = pgTable('providers', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  baseURL: text('base_url').notNull(),
  apiKeyEncrypted: text('api_key_encrypted'),
  models: json('models').$type<string[]>().notNull().default([]),
  toolCalling: text('tool_calling', { enum: ['native', 'prompt'] })
    .notNull()
    .default('native'),
  allow: json('allow').$type<string[]>().notNull().default(['*']),
  modelAllow: json('model_allow').$type<Record<string, string[]>>().notNull().default({}),
  noVision: json('no_vision').$type<string[]>().notNull().default([]),
  prices: json('prices').$type<Record<string, { input: number; output: number }>>().notNull().default({}),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const auditLog = pgTable(
  'audit_log',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    at: createdAt(),
    userId: text('user_id'),
    email: text('email'),
    action: text('action').notNull(),
    target: text('target'),
    outcome: text('outcome', { enum: ['ok', 'denied', 'failed'] }).notNull(),
    detail: text('detail'),
    kind: text('kind', { enum: ['admin', 'refused', 'anonymous'] }).notNull(),
    count: integer('count').notNull().default(1),
    lastAt: instant('last_at').notNull(),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_kind_last_idx').on(t.kind, t.lastAt),
    index('audit_log_repeat_idx').on(t.action, t.userId, t.lastAt),
  ],
);

/**
 * The chat tables: conversations, assistants, the message tree, public shares and uploaded files.
 * Postgres: db/schema-pg.ts re-exports them.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  json,
  pgTable,
  primaryKey,
  text,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';
import { user } from './auth';

// ── product tables ─────────────────────────────────────────────────────────────
export const conversations = pgTable(
  'conversations',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    titleSource: text('title_source', { enum: ['auto', 'model', 'user'] })
      .notNull()
      .default('auto'),
    model: text('model'),
    allowedTools: json('allowed_tools').$type<string[]>().notNull().default([]),
    toolMode: text('tool_mode', { enum: ['off', 'auto', 'required'] })
      .notNull()
      .default('auto'),
    toolServers: json('tool_servers').$type<string[] | null>(),
    disabledTools: json('disabled_tools').$type<string[]>().notNull().default([]),
    maxSteps: integer('max_steps'),
    maxToolCalls: integer('max_tool_calls'),
    assistantId: text('assistant_id'),
    instructions: text('instructions'),
    temperature: doublePrecision('temperature'),
    /** The last message of the selected path (kept by the messages_touch_insert trigger, as on SQLite). */
    leafId: text('leaf_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('conversations_user_updated_idx').on(t.userId, t.updatedAt, t.id)],
);

export const assistants = pgTable(
  'assistants',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    instructions: text('instructions').notNull(),
    model: text('model'),
    toolMode: text('tool_mode', { enum: ['off', 'auto', 'required'] }),
    servers: json('servers').$type<string[] | null>(),
    temperature: doublePrecision('temperature'),
    shared: boolean('shared').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('assistants_user_idx').on(t.userId), index('assistants_shared_idx').on(t.shared)],
);

export const messages = pgTable(
  'messages',
  {
    id: text('id').notNull(),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['system', 'user', 'assistant'] }).notNull(),
    parts: json('parts').$type<unknown[]>().notNull(),
    metadata: json('metadata').$type<Record<string, unknown>>(),
    parentId: text('parent_id'),
    seq: integer('seq').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.id] }),
    index('messages_conv_seq_idx').on(t.conversationId, t.seq),
    index('messages_conv_parent_idx').on(t.conversationId, t.parentId, t.seq),
    // The cut-turn sweep reads only recent questions (unansweredConversations).
    index('messages_user_created_idx').on(t.createdAt).where(sql`role = 'user'`),
  ],
);

export const shares = pgTable(
  'shares',
  {
    token: text('token').primaryKey(),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    snapshot: json('snapshot').$type<unknown[]>().notNull(),
    includeToolDetails: boolean('include_tool_details').notNull().default(false),
    ownerName: text('owner_name'),
    createdAt: createdAt(),
  },
  (t) => [index('shares_user_idx').on(t.userId, t.createdAt)],
);

export const files = pgTable(
  'files',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    sha256: text('sha256').notNull(),
    name: text('name').notNull(),
    mediaType: text('media_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('files_user_idx').on(t.userId, t.createdAt), index('files_sha_idx').on(t.sha256)],
);

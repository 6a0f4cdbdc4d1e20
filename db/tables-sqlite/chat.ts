/**
 * The chat tables: conversations, assistants, the message tree, public shares and uploaded files.
 * SQLite: db/schema.ts re-exports them.
 */
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createdAt, updatedAt } from './columns';
import { user } from './auth';

// ── product tables ─────────────────────────────────────────────────────────────
export const conversations = sqliteTable(
  'conversations',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** Who wrote the title: `auto` (the first words, then the model's title), `user` (a rename; never overwritten). */
    titleSource: text('title_source', { enum: ['auto', 'model', 'user'] })
      .notNull()
      .default('auto'),
    model: text('model'),
    /** Tools the owner chose to "always allow" here, as `server/tool`. */
    allowedTools: text('allowed_tools', { mode: 'json' }).$type<string[]>().notNull().default([]),
    /** Tool strategy: off (no tools sent), auto (the model decides), required (first step must call one). */
    toolMode: text('tool_mode', { enum: ['off', 'auto', 'required'] })
      .notNull()
      .default('auto'),
    /** Servers this conversation may use (null = every enabled server). */
    toolServers: text('tool_servers', { mode: 'json' }).$type<string[] | null>(),
    /** Tools switched off here, as `server/tool`. */
    disabledTools: text('disabled_tools', { mode: 'json' }).$type<string[]>().notNull().default([]),
    maxSteps: integer('max_steps'),
    maxToolCalls: integer('max_tool_calls'),
    /** The assistant the conversation was started with (its name is shown in the header); cleared when it is deleted. */
    assistantId: text('assistant_id'),
    /** The conversation's own instructions (seeded from its assistant, editable): the system message's first part. */
    instructions: text('instructions'),
    /** Sampling temperature (null = the provider's default). */
    temperature: real('temperature'),
    /**
     * The last message of the selected path (messages form a tree: edits and regenerations add
     * siblings); the conversation shows, exports, shares and searches the path from the root to it.
     */
    leafId: text('leaf_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('conversations_user_updated_idx').on(t.userId, t.updatedAt, t.id)],
);

/**
 * A named bundle of instructions and conversation settings, picked when starting a chat. Personal (its
 * owner only) or `shared` by an admin with every user.
 */
export const assistants = sqliteTable(
  'assistants',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    instructions: text('instructions').notNull(),
    /** null = the user's default model. */
    model: text('model'),
    /** null = the default tool mode. */
    toolMode: text('tool_mode', { enum: ['off', 'auto', 'required'] }),
    /** Servers a conversation started with it may use (null = every server the user may use). */
    servers: text('servers', { mode: 'json' }).$type<string[] | null>(),
    temperature: real('temperature'),
    shared: integer('shared', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('assistants_user_idx').on(t.userId), index('assistants_shared_idx').on(t.shared)],
);

export const messages = sqliteTable(
  'messages',
  {
    id: text('id').notNull(),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['system', 'user', 'assistant'] }).notNull(),
    /** UIMessage.parts, stored verbatim. */
    parts: text('parts', { mode: 'json' }).$type<unknown[]>().notNull(),
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>(),
    /** The message this one follows (null: the first of a path). Siblings are versions (edit, regenerate). */
    parentId: text('parent_id'),
    /** Order of writing within the conversation (siblings are numbered in this order). */
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

/** A public, read-only snapshot of a conversation; the token is the only key (≥128 random bits). */
export const shares = sqliteTable(
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
    /** The sanitized messages at share time (lib/share/serialize.ts): only what the public may see. */
    snapshot: text('snapshot', { mode: 'json' }).$type<unknown[]>().notNull(),
    includeToolDetails: integer('include_tool_details', { mode: 'boolean' }).notNull().default(false),
    ownerName: text('owner_name'),
    createdAt: createdAt(),
  },
  (t) => [index('shares_user_idx').on(t.userId, t.createdAt)],
);

/**
 * A file a user uploaded (POST /api/files) to attach to a message. The bytes live in the data folder under
 * `files/`, named by their SHA-256 (two users uploading the same bytes share one copy on disk); the row is
 * what makes it someone's: only its owner (or a share that includes it) may read it.
 */
export const files = sqliteTable(
  'files',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** Hex SHA-256 of the bytes: the name of the blob on disk. */
    sha256: text('sha256').notNull(),
    name: text('name').notNull(),
    /** Decided from the content (lib/files/sniff.ts), not from the name or the browser's word. */
    mediaType: text('media_type').notNull(),
    size: integer('size').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('files_user_idx').on(t.userId, t.createdAt), index('files_sha_idx').on(t.sha256)],
);

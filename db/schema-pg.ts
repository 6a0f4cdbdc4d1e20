/**
 * The Postgres mirror of db/schema.ts (used when DATABASE_URL=postgres://…): the same tables, column names,
 * defaults, indexes, unique keys and foreign keys, under the same exported names and property names, so query
 * code written against db/schema.ts runs unchanged here. Every column's JS value type equals the SQLite one
 * (db/schema-pg.types.test.ts fails to type-check otherwise):
 * - `integer(…, { mode: 'timestamp_ms' })` (a Date) → `timestamptz(3)`: a Date, kept to the millisecond as SQLite
 *   keeps it (a microsecond value read back as a Date would no longer equal itself in a keyset cursor);
 * - `integer(…, { mode: 'boolean' })` → boolean; `real` → double precision (SQLite's REAL is 8 bytes);
 * - `text(…, { mode: 'json' })` → `json`, not `jsonb`: the text is kept as written, key order and all, because
 *   some queries search the serialized JSON (db/queries/files.ts looks for `"id":"…"` in it);
 * - `audit_log.id` (an AUTOINCREMENT rowid) → an identity column (db:copy moves its sequence past the copied ids).
 * Triggers and full-text search are plain SQL appended to the baseline migration (db/migrations-pg/).
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
  timestamp,
} from 'drizzle-orm/pg-core';

/** A point in time as SQLite's `timestamp_ms` columns hold it: a Date, to the millisecond. */
const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date', precision: 3 });
const createdAt = () => instant('created_at').notNull().default(sql`now()`);
const updatedAt = () => instant('updated_at').notNull().default(sql`now()`);

// ── better-auth tables (field names are the library's) ────────────────────────
export const user = pgTable('user', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  role: text('role', { enum: ['user', 'admin'] })
    .notNull()
    .default('user'),
  disabled: boolean('disabled').notNull().default(false),
  /** The UI language the user picked (`en`, `zh-CN`); null = follow the browser. */
  locale: text('locale'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const session = pgTable(
  'session',
  {
    id: text('id').primaryKey(),
    expiresAt: instant('expires_at').notNull(),
    token: text('token').notNull().unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
  },
  (t) => [index('session_user_idx').on(t.userId)],
);

export const account = pgTable(
  'account',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: instant('access_token_expires_at'),
    refreshTokenExpiresAt: instant('refresh_token_expires_at'),
    scope: text('scope'),
    password: text('password'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('account_user_idx').on(t.userId)],
);

export const verification = pgTable('verification', {
  id: text('id').primaryKey(),
  identifier: text('identifier').notNull(),
  value: text('value').notNull(),
  expiresAt: instant('expires_at').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

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

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: json('value').$type<unknown>().notNull(),
});

// ── MCP ────────────────────────────────────────────────────────────────────────
export const mcpServers = pgTable('mcp_servers', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  config: json('config').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const toolCalls = pgTable(
  'tool_calls',
  {
    id: text('id').primaryKey(),
    conversationId: text('conversation_id'),
    server: text('server').notNull(),
    tool: text('tool').notNull(),
    durationMs: bigint('duration_ms', { mode: 'number' }).notNull(),
    outcome: text('outcome', { enum: ['ok', 'error', 'denied', 'cancelled'] }).notNull(),
    errorKind: text('error_kind'),
    error: text('error'),
    resultBytes: bigint('result_bytes', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('tool_calls_server_created_idx').on(t.server, t.createdAt)],
);

export const mcpTools = pgTable(
  'mcp_tools',
  {
    serverId: text('server_id')
      .notNull()
      .references(() => mcpServers.id, { onDelete: 'cascade' }),
    tool: text('tool').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    approval: text('approval', { enum: ['auto', 'ask'] }),
    reviewedHash: text('reviewed_hash').notNull(),
    reviewedDefinition: json('reviewed_definition').$type<Record<string, unknown>>().notNull(),
    changed: boolean('changed').notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.serverId, t.tool] })],
);

export const mcpUserSecrets = pgTable(
  'mcp_user_secrets',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    serverId: text('server_id')
      .notNull()
      .references(() => mcpServers.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['value', 'oauth'] }).notNull(),
    key: text('key').notNull(),
    value: text('value').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.serverId, t.kind, t.key] })],
);

export const mcpOauthClients = pgTable('mcp_oauth_clients', {
  issuer: text('issuer').primaryKey(),
  client: text('client').notNull(),
  createdAt: createdAt(),
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

/**
 * The MCP tables: servers, the tool-call log, per-tool settings, what each user is shown of a per-user
 * server's tools, per-user secrets and OAuth clients.
 * SQLite: db/schema.ts re-exports them.
 */
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createdAt, updatedAt } from './columns';
import { user } from './auth';

// ── MCP ────────────────────────────────────────────────────────────────────────
export const mcpServers = sqliteTable('mcp_servers', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  /** The whole validated config (lib/schemas/mcp.ts), env and header values sealed (db/sealing.ts); re-validated when read. */
  config: text('config', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const toolCalls = sqliteTable(
  'tool_calls',
  {
    id: text('id').primaryKey(),
    conversationId: text('conversation_id'),
    server: text('server').notNull(),
    tool: text('tool').notNull(),
    durationMs: integer('duration_ms').notNull(),
    outcome: text('outcome', { enum: ['ok', 'error', 'denied', 'cancelled'] }).notNull(),
    errorKind: text('error_kind'),
    error: text('error'),
    resultBytes: integer('result_bytes').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('tool_calls_server_created_idx').on(t.server, t.createdAt)],
);

/** Per-tool admin settings and the definition the admin last reviewed (for change detection). */
export const mcpTools = sqliteTable(
  'mcp_tools',
  {
    serverId: text('server_id')
      .notNull()
      .references(() => mcpServers.id, { onDelete: 'cascade' }),
    tool: text('tool').notNull(),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    /** null = the default policy (built-in and read-only tools auto, others ask). */
    approval: text('approval', { enum: ['auto', 'ask'] }),
    /** Hash of the reviewed definition (name, description, schemas, annotations). */
    reviewedHash: text('reviewed_hash').notNull(),
    reviewedDefinition: text('reviewed_definition', { mode: 'json' })
      .$type<Record<string, unknown>>()
      .notNull(),
    /** The server now announces a different definition: asks again until an admin reviews it. */
    changed: integer('changed', { mode: 'boolean' }).notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.serverId, t.tool] })],
);

/**
 * What each user's own connection to a per-user server (`scope: "user"`) announces for a tool, which may
 * differ between users (their own accounts, keys): the definition taken as reviewed for that user (the
 * first they were shown, or what they were shown when an admin last reviewed the tool) and the one seen
 * last. They differ: the tool changed for that user (it asks again until an admin reviews it).
 */
export const mcpToolViews = sqliteTable(
  'mcp_tool_views',
  {
    serverId: text('server_id')
      .notNull()
      .references(() => mcpServers.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    tool: text('tool').notNull(),
    reviewedHash: text('reviewed_hash').notNull(),
    reviewedDefinition: text('reviewed_definition', { mode: 'json' })
      .$type<Record<string, unknown>>()
      .notNull(),
    seenHash: text('seen_hash').notNull(),
    seenDefinition: text('seen_definition', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.serverId, t.userId, t.tool] }),
    index('mcp_tool_views_user_idx').on(t.userId),
  ],
);

/**
 * What one user keeps for one MCP server: the values the admin marked "each user supplies this"
 * (kind `value`, key = env or header name) and the user's OAuth state (kind `oauth`: tokens, PKCE
 * verifier, discovery). Every value sealed (db/sealing.ts); never returned by any API.
 */
export const mcpUserSecrets = sqliteTable(
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

/** OAuth clients registered dynamically, one per authorization server (its issuer), sealed. */
export const mcpOauthClients = sqliteTable('mcp_oauth_clients', {
  issuer: text('issuer').primaryKey(),
  client: text('client').notNull(),
  createdAt: createdAt(),
});

/**
 * The MCP tables: servers, the tool-call log, per-tool settings, what each user is shown of a per-user
 * server's tools, per-user secrets and OAuth clients.
 * Postgres: db/schema-pg.ts re-exports them.
 */
import { bigint, boolean, index, json, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';
import { user } from './auth';

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

export const mcpToolViews = pgTable(
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
    reviewedDefinition: json('reviewed_definition').$type<Record<string, unknown>>().notNull(),
    seenHash: text('seen_hash').notNull(),
    seenDefinition: json('seen_definition').$type<Record<string, unknown>>().notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.serverId, t.userId, t.tool] }),
    index('mcp_tool_views_user_idx').on(t.userId),
  ],
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

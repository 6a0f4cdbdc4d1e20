import * as pgSchema from '@/db/schema-pg';
import * as sqliteSchema from '@/db/schema';

/**
 * The tables the queries use, of the process's database: the Postgres ones when DATABASE_URL is a
 * postgres:// address, the SQLite ones otherwise. Both schemas have the same tables, columns and value
 * types (db/schema-pg.test.ts checks it), so the queries are written once, against the SQLite types.
 */
export const usesPostgres = /^postgres(ql)?:\/\//i.test(process.env.DATABASE_URL ?? '');

export const schema = (usesPostgres ? pgSchema : sqliteSchema) as unknown as typeof sqliteSchema;

export const {
  user,
  session,
  account,
  verification,
  conversations,
  assistants,
  messages,
  settings,
  mcpServers,
  toolCalls,
  mcpTools,
  mcpToolViews,
  mcpUserSecrets,
  mcpOauthClients,
  providers,
  shares,
  auditLog,
  files,
} = schema;

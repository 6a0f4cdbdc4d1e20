import { defineConfig } from 'drizzle-kit';

/** The Postgres migrations (DATABASE_URL=postgres://…), generated from db/schema-pg.ts: `npm run db:generate:pg`. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema-pg.ts',
  out: './db/migrations-pg',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://localhost/mcp_chat' },
});

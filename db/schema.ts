/**
 * The SQLite tables (drizzle-kit's input, drizzle.config.ts), split by theme under db/tables-sqlite/.
 */
export * from './tables-sqlite/auth';
export * from './tables-sqlite/chat';
export * from './tables-sqlite/mcp';
export * from './tables-sqlite/admin';

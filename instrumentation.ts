/** Runs once when the server starts: migrate the database, then seed, import and warm the MCP servers. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { getDb } = await import('@/db/client');
  getDb();
  const { startMcp } = await import('@/app/_server/mcp');
  startMcp();
}

/** Runs once when the server starts: migrate the database, then seed, import and warm the MCP servers; probe Ollama. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { getDb } = await import('@/db/client');
  getDb();
  const { startMcp } = await import('@/app/_server/mcp');
  startMcp();
  const [{ refreshOllama }, { getEnv }] = await Promise.all([import('@/lib/ollama'), import('@/lib/env')]);
  void refreshOllama(getEnv().OLLAMA_BASE_URL);
}

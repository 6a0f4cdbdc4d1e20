/** Runs once when the server starts: open and migrate the database so the first request finds it ready. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { getDb } = await import('@/db/client');
  getDb();
}

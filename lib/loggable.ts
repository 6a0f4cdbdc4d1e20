/**
 * An error as it may be logged: a database error without the values a request brought. drizzle's failed
 * query carries the query's parameters (in its message and `params`: a message's text, an email, a
 * tool's arguments), and a Postgres error names the row's values in its `detail` ("Key (email)=(…)
 * already exists."). Such an error is logged as the database's own words and code, with the query's SQL
 * (its placeholders, not the values) and the stack; any other error as it is.
 */
export function loggable(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const query = (err as { query?: unknown }).query;
  const failedQuery = typeof query === 'string' && 'params' in err;
  const db = failedQuery ? err.cause : err;
  if (!failedQuery && !(db instanceof Error && 'detail' in db)) return err;
  const words = db instanceof Error ? errorWords(db) : 'a database query failed';
  const out = new Error(words) as Error & { query?: string };
  out.name = failedQuery ? 'DatabaseQueryError' : err.name;
  if (failedQuery) out.query = query as string;
  const frames = (err.stack ?? '').split('\n').filter((line) => line.startsWith('    at '));
  out.stack = [`${out.name}: ${words}`, ...frames].join('\n');
  return out;
}

/** An error in one line: its name, message and code (a database's, a system call's). */
export function errorWords(err: Error): string {
  const code = (err as { code?: unknown }).code;
  return `${err.name}: ${err.message}${typeof code === 'string' || typeof code === 'number' ? ` (${code})` : ''}`;
}

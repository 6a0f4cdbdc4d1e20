import { loggable } from '@/lib/loggable';

/**
 * The auth library's log lines, without what a request brought: the library logs a failed write with the
 * database's error, whose drizzle message lists the query's values ("Failed query: … params: <email>,…")
 * and whose Postgres cause carries them in its `detail` ("Key (email)=(…) already exists."). An error is
 * logged by its name, message and code only, a failed query's by its cause (the driver's own words, which
 * name the constraint, not the values); anything else that is not text by its kind.
 */
export function authLogLine(level: string, message: string, args: unknown[]): string {
  const parts = args.map((arg) => {
    if (arg instanceof Error) {
      const err = loggable(arg) as Error;
      if (err !== arg) return err.message; // a database's failure: its own words and code
      const code = (err as { code?: unknown }).code;
      return `${err.name}: ${err.message}${typeof code === 'string' || typeof code === 'number' ? ` (${code})` : ''}`;
    }
    if (typeof arg === 'string' || typeof arg === 'number' || typeof arg === 'boolean') return String(arg);
    return `[${arg === null ? 'null' : typeof arg}]`;
  });
  return [`[auth] ${level}: ${message}`, ...parts].join(' ');
}

/** better-auth's `logger.log`: one line per message, on stderr for warnings and errors. */
export function authLog(
  level: 'debug' | 'info' | 'warn' | 'error',
  message: string,
  ...args: unknown[]
): void {
  const line = authLogLine(level, message, args);
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
}

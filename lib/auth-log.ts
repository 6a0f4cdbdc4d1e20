import { errorWords, loggable } from '@/lib/loggable';

/**
 * The auth library's log lines, without what a request brought: the library logs a failed write with the
 * database's error, which names the row's values (drizzle's parameters, Postgres's `detail`). An error is
 * logged as lib/loggable.ts has it, in one line; anything else that is not text by its kind.
 */
export function authLogLine(level: string, message: string, args: unknown[]): string {
  const parts = args.map((arg) => {
    if (arg instanceof Error) {
      const err = loggable(arg) as Error;
      // A database's failure is already its own words; any other error by its name, message and code.
      return err === arg ? errorWords(err) : err.message;
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

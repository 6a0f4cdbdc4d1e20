import 'server-only';
import { getEnv } from '@/lib/env';

/**
 * At start: a bad environment (e.g. a malformed ENCRYPTION_KEY) ends the process with the reason,
 * instead of leaving a server that answers every request with a 500.
 */
export function exitOnBadEnvironment(): void {
  try {
    getEnv();
  } catch (err) {
    console.error(`[config] ${err instanceof Error ? err.message : String(err)}. The server is not started.`);
    process.exit(1);
  }
}

import { McpFailure } from '@/lib/mcp/errors';

/** Stop waiting (for a connection) as soon as the caller gives up; the attempt itself goes on for the next caller. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted)
    return Promise.reject(new McpFailure('timeout', 'Cancelled before the server was reached.'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new McpFailure('timeout', 'Cancelled before the server was reached.'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

import 'server-only';
import { processState } from '@/lib/process-state';

/**
 * Runs `step` after every step queued before it under `key` has ended, in this process: a read-then-write
 * that two requests must not interleave (the OAuth sign-ins in progress of a user and server; the MCP
 * server configs applied to the pool, each read when its turn comes, so the last read is applied last).
 * A failed step does not hold up the next.
 */
export function oneAtATime<T>(key: string, step: () => Promise<T>): Promise<T> {
  const queues = processState('stepQueues', () => new Map<string, Promise<void>>());
  const run = (queues.get(key) ?? Promise.resolve()).then(step);
  const tail = run.then(
    () => {},
    () => {},
  );
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}

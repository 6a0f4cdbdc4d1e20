// Test helpers: one real redis-server per test file, and connections that are closed after it.
import { after, before } from 'node:test';
import { type RedisServer, startRedisServer } from '@/e2e/fixtures/redis-server';
import { RedisConnections } from '@/lib/shared/redis';

/** Starts redis-server for the calling test file; `connections()` stands for one app instance's. */
export function startRedisForFile() {
  const server = {} as RedisServer;
  const open: RedisConnections[] = [];
  before(async () => {
    Object.assign(server, await startRedisServer());
  });
  after(async () => {
    await Promise.all(open.map((c) => c.close()));
    await server.stop();
  });
  return {
    server,
    connections(): RedisConnections {
      const c = new RedisConnections(server.url);
      open.push(c);
      return c;
    },
  };
}

/** Resolves once `check()` is true, checking every 20 ms (at most `tries` times). */
export async function eventually(check: () => Promise<boolean> | boolean, tries = 500): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the condition never became true');
}

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ToolCache } from '@/lib/mcp/tool-cache';

test('an observer whose recording fails (a database error) is logged: the list is served and nothing is left unhandled', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  const logged: unknown[][] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => logged.push(args);
  try {
    const tools = [{ name: 'add', inputSchema: { type: 'object' as const } }];
    const cache = new ToolCache({
      server: 'calc',
      ttlMs: 60_000,
      fetch: async () => tools,
      onFetched: () => {},
      onTools: async () => {
        throw new Error('the database is down');
      },
    });
    assert.deepEqual(await cache.get(), tools);
    // Long enough for an unhandled rejection to be reported (it is, after the microtask queue drains).
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    console.error = error;
    process.off('unhandledRejection', onUnhandled);
  }
  assert.deepEqual(unhandled, []);
  assert.equal(logged.length, 1);
  assert.match(String(logged[0]?.[0]), /tool observer failed for "calc"/);
  assert.match(String(logged[0]?.[1]), /the database is down/);
});

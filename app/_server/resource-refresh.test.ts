import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { refreshChangedResources } from '@/app/_server/resource-refresh';
import { getDb } from '@/db/client';
import { listMessages } from '@/db/queries/messages';
import { conversations, messages, user } from '@/db/schema';
import type { Principal } from '@/lib/access';
import { getPool } from '@/lib/mcp/pool';
import { resetProcessState } from '@/lib/process-state';
import { McpServerConfigSchema } from '@/lib/schemas/mcp';
import type { ChatMessage } from '@/lib/schemas/chat';

// Attached resources read again when the server says they changed, against a real database file and the
// rich test MCP server (a real stdio process; counter://value, bump_counter).

const FIXTURE = fileURLToPath(new URL('../../e2e/fixtures/test-mcp-server.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'resource-refresh-'));
const saved = { ...process.env };
const alice: Principal = { id: 'alice', email: 'alice@example.com', role: 'user' };
const URI = 'counter://value';

before(async () => {
  resetProcessState();
  process.env.DATABASE_PATH = join(dir, 'app.db');
  await getDb().insert(user).values({ id: alice.id, name: 'Alice', email: alice.email, role: 'user' });
  getPool().sync([
    McpServerConfigSchema.parse({
      name: 'rich',
      transport: 'stdio',
      command: process.execPath,
      args: [FIXTURE, 'stdio'],
      env: { TEST_MCP_RICH: '1' },
    }),
  ]);
});
after(async () => {
  await getPool().closeAll();
  resetProcessState();
  process.env = { ...saved };
  rmSync(dir, { recursive: true, force: true });
});

const counterIn = (m: ChatMessage | undefined) =>
  m?.parts.flatMap((p) => (p.type === 'data-resource' ? [p.data.text] : []))[0];

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; !condition(); i++) {
    assert.ok(i < 100_000, 'the condition never held');
    await nextTurn();
  }
}

test('a resource attached in two conversations and changed once is read again in each of them', async () => {
  const conn = getPool().forUser(alice).connection('rich');
  assert.ok(conn);
  const read = await conn.request((client) => client.readResource({ uri: URI }));
  const first = read.contents[0] && 'text' in read.contents[0] ? read.contents[0].text : '';
  const histories: Record<string, ChatMessage[]> = {};
  for (const id of ['conv-a', 'conv-b']) {
    await getDb().insert(conversations).values({ id, userId: alice.id, title: id });
    const part = {
      type: 'data-resource' as const,
      data: { server: 'rich', uri: URI, name: 'counter', text: first },
    };
    await getDb()
      .insert(messages)
      .values({ id: `${id}-m1`, conversationId: id, role: 'user', seq: 0, parts: [part] });
    histories[id] = await listMessages(getDb(), id);
    // The turn that attached it: the resource is watched from now on.
    await refreshChangedResources(alice, id, histories[id] ?? []);
  }
  await until(() => conn.watch.watching(URI));
  // The server changes it (a tool call in either conversation) and tells its subscribers, before the
  // tool's result. Conversation A's next turn reads it again.
  await getPool().forUser(alice).callTool('rich', 'bump_counter', {});
  const changed = async (id: string) =>
    counterIn((await refreshChangedResources(alice, id, histories[id] ?? []))[0]);
  const inA = await changed('conv-a');
  assert.notEqual(inA, first);
  // The next turn of the other conversation sees it changed too, not the text it was attached with.
  assert.equal(await changed('conv-b'), inA);
  assert.equal(counterIn((await listMessages(getDb(), 'conv-b'))[0]), inA, 'stored in B as well');
});

/**
 * R6 (SECURITY-CASES.md): `kill -9` of the Next.js server mid-stream, then a restart; and 50 parallel
 * chats writing to SQLite. Safe state: the user message is there, the cut answer is marked
 * interrupted, `PRAGMA integrity_check` is ok, the dead process's MCP children are gone; under load no
 * SQLITE_BUSY reaches a user and no message is lost.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { after, before, test } from 'node:test';
import {
  addUser,
  alive,
  type Auth,
  chat,
  chatBody,
  chatUntil,
  childrenOf,
  cmdline,
  conversation,
  newId,
  procStatus,
  type Stack,
  startStack,
  streamedText,
  TEST_MCP_SERVER,
  testServer,
  waitFor,
  withDb,
} from './harness';

let stack: Stack;
let admin: Auth;

before(async () => {
  ({ stack, admin } = await startStack(
    { tests: testServer() },
    { name: 'R6 Admin', email: 'r6@example.com', password: 'r6-password-1' },
  ));
});
after(() => stack?.stop());

const integrity = () => withDb(stack, (db) => db.pragma('integrity_check', { simple: true }));
const mcpChildrenOf = (pid: number) => childrenOf(pid).filter((c) => cmdline(c).includes(TEST_MCP_SERVER));

test('R6: kill -9 mid-stream, restart: user message kept, answer marked interrupted, integrity ok, orphaned MCP children gone', async () => {
  const id = newId('r6-kill');
  const messageId = newId('m');
  const live = await chatUntil(
    stack,
    admin,
    chatBody(id, messageId, 'Slow tool [[tool:sleep:{"ms":30000,"steps":60}]]'),
    /"type":"data-tool-progress"/,
  );
  const server = stack.serverPid();
  const orphans = mcpChildrenOf(server);
  assert.ok(
    orphans.length >= 1,
    `the app has its MCP stdio child (children of ${server}: ${childrenOf(server).map(cmdline).join(' | ')})`,
  );

  const killedAt = performance.now();
  await stack.kill9();
  live.cut();

  // While the app is down: the database file is consistent and holds the user message, no answer yet.
  assert.equal(integrity(), 'ok', 'PRAGMA integrity_check right after kill -9');
  const stored = withDb(stack, (db) =>
    db.prepare('select id, role from messages where conversation_id = ? order by seq').all(id),
  );
  assert.deepEqual(stored, [{ id: messageId, role: 'user' }], 'the user message survived the kill');

  // The dead server's MCP children see their stdin close and exit, and are reaped by whoever adopted them.
  await waitFor(
    `orphaned MCP children ${orphans.join(', ')} to exit`,
    () => (alive(orphans).length === 0 ? true : undefined),
    5000,
    10,
  );
  const exitedMs = Math.round(performance.now() - killedAt);
  await waitFor(
    `orphaned MCP children ${orphans.join(', ')} to be reaped`,
    () => (orphans.every((pid) => procStatus(pid) === null) ? true : undefined),
    10_000,
    10,
  );
  console.log(
    `R6 orphaned MCP children (${orphans.length}) exited ${exitedMs} ms and were reaped ${Math.round(performance.now() - killedAt)} ms after kill -9`,
  );

  const restartAt = performance.now();
  await stack.startApp();
  const { status, messages } = await conversation(stack, admin, id);
  const ms = Math.round(performance.now() - killedAt);
  console.log(
    `R6 restart ready in ${Math.round(performance.now() - restartAt)} ms; time-to-safe-state (kill -9 → interrupted turn visible after restart): ${ms} ms`,
  );
  assert.equal(status, 200);
  assert.deepEqual(
    messages.map((m) => [m.role, m.role === 'user' ? m.id : '']),
    [
      ['user', messageId],
      ['assistant', ''],
    ],
  );
  assert.equal(
    messages[1]?.metadata?.interrupted,
    true,
    `the lost answer is marked interrupted: ${JSON.stringify(messages[1])}`,
  );
  assert.equal(integrity(), 'ok', 'PRAGMA integrity_check after the restart');

  // The conversation goes on: a new message in it gets a full answer, with a fresh MCP child.
  const next = await chat(stack, admin, chatBody(id, newId('m'), 'Again [[tool:add:{"a":2,"b":3}]]'));
  assert.equal(next.status, 200, next.body.slice(0, 300));
  assert.equal(streamedText(next.body), 'Tool results: 5');
  assert.equal(mcpChildrenOf(stack.serverPid()).length, 1, 'the restarted app runs its own MCP child');
  assert.deepEqual(alive(orphans), [], 'none of the old children came back');
});

/** A second process holds SQLite's write lock for `ms` (as a backup or a migration would). */
function holdWriteLock(dbPath: string, ms: number): Promise<void> {
  const script = `const db = new (require('better-sqlite3'))(process.argv[1]); db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\\n'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ms}); db.exec('COMMIT'); db.close();`;
  const child = spawn(process.execPath, ['-e', script, dbPath], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => (code ? reject(new Error(`lock holder exited ${code}`)) : undefined));
  });
}

test('R6: 50 parallel chats from 5 users write to SQLite: no SQLITE_BUSY reaches a user, no message lost', async () => {
  const users: Auth[] = [admin];
  for (let i = 1; i < 5; i++) {
    const account = { name: `R6 User ${i}`, email: `r6-user${i}@example.com`, password: `r6-password-${i}x` };
    users.push((await addUser(stack, admin, account)).auth);
  }
  const turns = Array.from({ length: 50 }, (_, i) => ({
    auth: users[i % users.length]!,
    id: newId(`r6-load${i}`),
    messageId: newId('m'),
    // Every fifth turn also calls a tool (one more write: the tool-call record).
    text: i % 5 === 0 ? `Add [[tool:add:{"a":${i},"b":1}]]` : `[[words:40]] [[slow:5]] turn ${i}`,
  }));
  // Another connection holds the write lock for 1.5 s while the turns start: the app's writers must wait, not fail.
  await holdWriteLock(stack.dbPath, 1500);
  const started = performance.now();
  const results = await Promise.all(
    turns.map((t) => chat(stack, t.auth, chatBody(t.id, t.messageId, t.text))),
  );
  console.log(
    `R6 50 parallel turns (5 users, write lock held by another process for 1.5 s) done in ${Math.round(performance.now() - started)} ms`,
  );

  for (const [i, r] of results.entries()) {
    assert.equal(r.status, 200, `turn ${i}: HTTP ${r.status} ${r.body.slice(0, 300)}`);
    assert.doesNotMatch(
      r.body,
      /SQLITE_BUSY|database is locked|"type":"error"/i,
      `turn ${i} showed an error`,
    );
    assert.match(r.body, /"type":"finish"/, `turn ${i} finished`);
  }
  const counts = withDb(stack, (db) => {
    const perConversation = db.prepare(
      'select role, count(*) as n from messages where conversation_id = ? group by role order by role',
    );
    return turns.map((t) => perConversation.all(t.id));
  });
  for (const [i, c] of counts.entries())
    assert.deepEqual(
      c,
      [
        { role: 'assistant', n: 1 },
        { role: 'user', n: 1 },
      ],
      `conversation ${i} holds its question and its answer`,
    );
  const interrupted = withDb(stack, (db) =>
    db
      .prepare(
        "select count(*) as n from messages where conversation_id like 'r6-load%' and json_extract(metadata, '$.interrupted') = 1",
      )
      .get(),
  ) as { n: number };
  const toolRows = withDb(stack, (db) =>
    db
      .prepare(
        "select count(*) as n from tool_calls where tool = 'add' and outcome = 'ok' and conversation_id like 'r6-load%'",
      )
      .get(),
  ) as { n: number };
  assert.equal(toolRows.n, 10, 'every tool call recorded');
  assert.equal(interrupted.n, 0, 'no answer under load is marked interrupted');
  assert.equal(integrity(), 'ok');
});

/**
 * Durable turns at shutdown (SPEC §7.1): SIGTERM while an answer streams and no tab is attached any
 * more. Safe state: the server stops taking turns, stores the running answer as interrupted (with what
 * was written so far), closes its MCP children and exits within 10 s; after a restart the conversation
 * shows the interrupted answer with nothing lost.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { after, before, test } from 'node:test';
import {
  alive,
  type Auth,
  chatBody,
  chatUntil,
  childrenOf,
  cmdline,
  conversation,
  newId,
  type Stack,
  startStack,
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
    { name: 'R8 Admin', email: 'r8@example.com', password: 'r8-password-1' },
  ));
});
after(() => stack?.stop());

/** Reads the conversation's running turn (GET /api/chat/[id]/stream, as a reload would) until `until` shows. */
function resumedUntil(id: string, until: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${stack.appUrl}/api/chat/${id}/stream`, { headers: admin, agent: false }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`GET stream: HTTP ${res.statusCode}`));
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (!until.test(text)) return;
        req.destroy();
        resolve();
      });
      res.on('end', () => reject(new Error(`the turn ended without ${until}: ${text.slice(-300)}`)));
    });
    req.on('error', reject);
  });
}

test('R8: SIGTERM during a turn with no tab attached: the answer so far is stored as interrupted, children closed, exit within 10 s', async () => {
  const id = newId('r8-term');
  const messageId = newId('m');
  const live = await chatUntil(
    stack,
    admin,
    chatBody(id, messageId, 'Long answer [[words:2000]] [[slow:15]]'),
    /"type":"text-delta"/,
  );
  live.cut(); // the tab is gone: the turn goes on without it
  const lastWord = Math.max(0, ...[...live.text.matchAll(/word(\d+)/g)].map((m) => Number(m[1])));
  await resumedUntil(id, new RegExp(`word${lastWord + 5}\\b`)); // five more words written since
  const server = stack.serverPid();
  const children = childrenOf(server).filter((c) => cmdline(c).includes(TEST_MCP_SERVER));

  const termAt = performance.now();
  process.kill(server, 'SIGTERM');
  // The app's own deadline (SHUTDOWN_DEADLINE_MS, under 10 s) ends a stuck shutdown with exit code 1:
  // code 0 is a shutdown that finished its work (turns stored, children closed) before that.
  await waitFor('the app to exit', () => (stack.appAlive() ? undefined : true), 30_000, 20); // a hang guard
  const code = stack.app?.proc.exitCode;
  console.log(
    `R8 SIGTERM → exit with the running answer stored: ${Math.round(performance.now() - termAt)} ms`,
  );
  assert.equal(code, 0, `a clean exit before the shutdown deadline\n${stack.appLog()}`);
  await waitFor('MCP children to exit', () => (alive(children).length === 0 ? true : undefined), 5000, 20);

  const rows = withDb(stack, (db) =>
    db.prepare('select role, parts, metadata from messages where conversation_id = ? order by seq').all(id),
  ) as Array<{ role: string; parts: string; metadata: string | null }>;
  assert.deepEqual(
    rows.map((r) => r.role),
    ['user', 'assistant'],
  );
  const answer = rows[1];
  assert.equal(JSON.parse(answer?.metadata ?? '{}').interrupted, true, 'stored as interrupted');
  const text = JSON.parse(answer?.parts ?? '[]')
    .map((p: { text?: string }) => p.text ?? '')
    .join('');
  assert.match(text, /^word1 word2 /, 'what was written so far is kept');
  assert.doesNotMatch(text, /word2000/, 'it was cut by the shutdown, not finished');

  await stack.startApp();
  const { messages } = await conversation(stack, admin, id);
  assert.deepEqual(
    messages.map((m) => m.role),
    ['user', 'assistant'],
    'a restart adds no second "interrupted" answer',
  );
  assert.equal(messages[1]?.metadata?.interrupted, true);
});

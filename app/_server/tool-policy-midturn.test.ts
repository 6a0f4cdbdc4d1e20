// An admin's change to a tool while an answer that calls it keeps running (the fake model calling a real
// stdio server's `sleep` again and again): the answer's next call follows the change, not the policy the
// answer started with. Chat turns as POST /api/chat runs them, on a fresh SQLite file.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { startChatTurn } from '@/app/_server/chat-turn';
import { patchTool } from '@/app/_server/mcp-admin';
import { createServer } from '@/app/_server/mcp-servers';
import type { SessionUser } from '@/app/_server/session';
import { settledTitle } from '@/app/_server/titles';
import { getDb } from '@/db/client';
import { listMessages } from '@/db/queries/messages';
import { updateSettings } from '@/db/queries/settings';
import { user } from '@/db/schema';
import { fake, startFakeForFile } from '@/e2e/fixtures/fake-openai-test-kit';
import { getPool } from '@/lib/mcp/pool';
import { resetProcessState } from '@/lib/process-state';

startFakeForFile();
const FIXTURE = fileURLToPath(new URL('../../e2e/fixtures/test-mcp-server.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'tool-policy-midturn-'));
const saved = { ...process.env };
const alice: SessionUser = { id: 'alice', name: 'Alice', email: 'alice@example.com', role: 'user' };
const root: SessionUser = { id: 'root', name: 'Root', email: 'root@example.com', role: 'admin' };
let serverId = '';

/** The stored sleep calls of a conversation's answer: each call's state and, for a failed one, its text. */
async function calls(conversation: string) {
  const answer = (await listMessages(getDb(), conversation)).at(-1);
  return (answer?.parts ?? []).flatMap((p) =>
    p.type === 'dynamic-tool' ? [{ state: p.state, error: 'errorText' in p ? p.errorText : undefined }] : [],
  );
}

/**
 * Starts an answer that calls `sleep` (1.5 s: longer than the change takes) in a loop until the step
 * limit, waits until its first call runs, then makes `change` and reads the answer to its end.
 */
async function changeWhileRunning(conversation: string, change: () => Promise<unknown>) {
  const res = await startChatTurn(alice, {
    id: conversation,
    message: {
      id: `${conversation}-q`,
      role: 'user',
      parts: [{ type: 'text', text: '[[tool:sleep:{"ms":1500,"steps":1}]] [[loop]]' }],
    },
  });
  const reader = (res.body as ReadableStream<Uint8Array>)
    .pipeThrough(new TextDecoderStream() as ReadableWritablePair<string, Uint8Array>)
    .getReader();
  let seen = '';
  while (!seen.includes('"type":"tool-input-available"')) {
    const { value, done } = await reader.read();
    assert.ok(!done, `the answer ended before its first call: ${seen}`);
    seen += value;
  }
  await change();
  while (!(await reader.read()).done);
  await settledTitle(getDb(), alice.id, conversation, 5000);
}

describe('tool settings changed during an answer', () => {
  before(async () => {
    resetProcessState();
    Object.assign(process.env, {
      DATABASE_PATH: join(dir, 'app.db'),
      OPENAI_BASE_URL: `${fake.url}/v1`,
      OPENAI_API_KEY: 'sk-test',
      CHAT_MODEL: 'fake-model',
    });
    for (const u of [alice, root]) await getDb().insert(user).values(u);
    // Four steps: the first call, then up to three more (made or refused).
    await updateSettings(getDb(), { maxSteps: 4 });
    const created = await createServer({
      name: 'tests',
      transport: 'stdio',
      command: process.execPath,
      args: [FIXTURE, 'stdio'],
    });
    serverId = created.id;
  });
  after(async () => {
    await getPool().closeAll();
    resetProcessState();
    process.env = { ...saved };
    rmSync(dir, { recursive: true, force: true });
  });

  test('a tool turned off while the answer runs is not run again: its next calls fail with the reason', async (t) => {
    t.after(() => patchTool(root, serverId, 'sleep', { enabled: true }));
    await changeWhileRunning('turned-off', () => patchTool(root, serverId, 'sleep', { enabled: false }));
    const made = await calls('turned-off');
    assert.equal(made[0]?.state, 'output-available', 'the call running at the change finishes');
    assert.ok(made.length >= 2, 'the model called it again');
    for (const later of made.slice(1)) {
      assert.equal(later.state, 'output-error');
      assert.match(later.error ?? '', /An admin turned this tool off while the answer was running/);
    }
  });

  test('a tool made to ask first while the answer runs asks at its next call', async (t) => {
    t.after(() => patchTool(root, serverId, 'sleep', { approval: 'auto' }));
    await changeWhileRunning('made-to-ask', () => patchTool(root, serverId, 'sleep', { approval: 'ask' }));
    const states = (await calls('made-to-ask')).map((c) => c.state);
    assert.deepEqual(states, ['output-available', 'approval-requested'], 'the answer ends there');
  });
});

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Db, openDatabase } from '@/db/client';
import { getVisibleAssistant, listVisibleAssistants, updateAssistant } from '@/db/queries/assistants';
import { getOwnConversation } from '@/db/queries/conversations';
import { user } from '@/db/schema';
import {
  assistantForChat,
  assistantSeed,
  changeAssistant,
  createAssistant,
  presentAssistant,
  removeAssistant,
} from '@/app/_server/assistants';
import { systemMessage } from '@/app/_server/chat-turn';
import { loadTurn, persistInput } from '@/app/_server/turn-stages';
import type { SessionUser } from '@/app/_server/session';
import { AppError } from '@/lib/errors';
import { getPool } from '@/lib/mcp/pool';
import { AssistantCreateSchema, MAX_INSTRUCTIONS_CHARS } from '@/lib/schemas/assistants';
import { McpServerConfigSchema } from '@/lib/schemas/mcp';
import type { ChatPost } from '@/lib/schemas/chat-post';

// Who sees, changes and uses which assistant, against a real migrated SQLite file (no HTTP, no model).

let dir: string;
let db: Db;
let close: () => void;
const alice: SessionUser = { id: 'alice', name: 'Alice', email: 'alice@example.com', role: 'user' };
const bob: SessionUser = { id: 'bob', name: 'Bob', email: 'bob@example.com', role: 'user' };
const root: SessionUser = { id: 'root', name: 'Root', email: 'root@example.com', role: 'admin' };

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assistants-'));
  const handle = openDatabase(join(dir, 'test.db'));
  db = handle.db;
  close = () => handle.sqlite.close();
  for (const u of [alice, bob, root])
    db.insert(user).values({ id: u.id, name: u.name, email: u.email, role: u.role }).run();
  // Per-user servers: nothing connects until someone uses one.
  const server = (name: string, allow: string[]) =>
    McpServerConfigSchema.parse({ name, transport: 'stdio', command: 'true', scope: 'user', allow });
  getPool().sync([server('everyone', ['*']), server('admins', ['admin'])]);
});
after(async () => {
  getPool().sync([]);
  close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs fn and returns the AppError it throws. */
async function refused(fn: () => unknown): Promise<AppError> {
  try {
    await fn();
  } catch (err) {
    assert.ok(err instanceof AppError, String(err));
    return err;
  }
  assert.fail('expected an error');
}

describe('versions (If-Match)', () => {
  test('a save from a form opened before another tab saved is a 409 and writes nothing; without If-Match it writes', async () => {
    const made = await createAssistant(db, alice, { name: 'Versioned', instructions: 'one' });
    const opened = new Date(presentAssistant(alice, made, new Set()).updatedAt);
    const first = await changeAssistant(db, alice, made.id, { instructions: 'two' }, opened);
    assert.ok(first.updatedAt.getTime() > opened.getTime(), 'a save moves the version on');
    const stale = await refused(() => changeAssistant(db, alice, made.id, { instructions: 'three' }, opened));
    assert.equal(stale.code, 'conflict');
    assert.match(stale.message, /This assistant was changed since you opened it/);
    assert.equal((await getVisibleAssistant(db, alice.id, made.id))?.instructions, 'two');
    // The new version saves; no If-Match (an API client) writes over whatever is there.
    assert.equal((await changeAssistant(db, alice, made.id, { name: 'V2' }, first.updatedAt)).name, 'V2');
    assert.equal((await changeAssistant(db, alice, made.id, { instructions: 'four' })).instructions, 'four');
    // Deleted meanwhile: a 404, not a 409.
    const gone = (await getVisibleAssistant(db, alice.id, made.id))!.updatedAt;
    await removeAssistant(db, alice, made.id);
    assert.equal(
      (await refused(() => changeAssistant(db, alice, made.id, { name: 'x' }, gone))).code,
      'not_found',
    );
  });

  test('two saves of the same version at once: exactly one is written', async () => {
    const made = await createAssistant(db, alice, { name: 'Raced', instructions: 'start' });
    const edit = (instructions: string) =>
      updateAssistant(db, made.id, { instructions }, made.updatedAt, { ifUnchanged: true });
    const results = await Promise.all([edit('tab one'), edit('tab two')]);
    const written = results.filter((r) => r !== null);
    assert.equal(written.length, 1);
    assert.equal((await getVisibleAssistant(db, alice.id, made.id))?.instructions, written[0]?.instructions);
  });
});

describe('ownership', () => {
  test("a user sees their own and the shared assistants, never another user's personal one (404)", async () => {
    const mine = await createAssistant(db, alice, { name: 'Alice writer', instructions: 'Write well.' });
    const shared = await createAssistant(db, root, { name: 'Team', instructions: 'Be kind.', shared: true });
    const rootOwn = await createAssistant(db, root, { name: 'Root private', instructions: 'x' });
    const bobs = (await listVisibleAssistants(db, bob.id)).map((a) => a.id);
    assert.ok(bobs.includes(shared.id));
    assert.ok(!bobs.includes(mine.id) && !bobs.includes(rootOwn.id));
    assert.equal((await refused(() => assistantForChat(db, bob.id, mine.id))).code, 'not_found');
    assert.equal(
      (await refused(() => changeAssistant(db, bob, mine.id, { name: 'Mine now' }))).code,
      'not_found',
    );
    assert.equal((await refused(() => removeAssistant(db, bob, mine.id))).code, 'not_found');
    // Another admin's personal assistant is not theirs either.
    assert.equal(
      (await refused(() => changeAssistant(db, alice, rootOwn.id, { name: 'x' }))).code,
      'not_found',
    );
    assert.equal((await assistantForChat(db, bob.id, shared.id)).name, 'Team');
  });

  test('only admins share, change or delete a shared assistant (403)', async () => {
    const err = await refused(() =>
      createAssistant(db, alice, { name: 'Mine', instructions: 'x', shared: true }),
    );
    assert.equal(err.code, 'forbidden');
    assert.deepEqual(err.fields, { shared: 'admins only' });
    const own = await createAssistant(db, alice, { name: 'Own', instructions: 'x' });
    assert.equal(
      (await refused(() => changeAssistant(db, alice, own.id, { shared: true }))).code,
      'forbidden',
    );

    const shared = await createAssistant(db, root, { name: 'Shared', instructions: 'x', shared: true });
    assert.equal(presentAssistant(alice, shared, new Set()).editable, false);
    assert.equal(presentAssistant(root, shared, new Set()).editable, true);
    assert.equal(
      (await refused(() => changeAssistant(db, alice, shared.id, { name: 'Hijacked' }))).code,
      'forbidden',
    );
    assert.equal((await refused(() => removeAssistant(db, alice, shared.id))).code, 'forbidden');
    assert.equal((await assistantForChat(db, alice.id, shared.id)).name, 'Shared');
    assert.equal((await changeAssistant(db, root, shared.id, { name: 'Renamed' })).name, 'Renamed');
    await removeAssistant(db, root, shared.id);
    assert.equal((await refused(() => assistantForChat(db, alice.id, shared.id))).code, 'not_found');
  });
});

describe('validation', () => {
  test('a server the author may not use is refused, naming the field; one they may use is kept', async () => {
    const err = await refused(() =>
      createAssistant(db, alice, { name: 'Sneaky', instructions: 'x', servers: ['everyone', 'admins'] }),
    );
    assert.equal(err.code, 'bad_request');
    assert.match(err.fields?.servers ?? '', /admins/);
    const ok = await createAssistant(db, alice, { name: 'Fine', instructions: 'x', servers: ['everyone'] });
    assert.deepEqual(ok.servers, ['everyone']);
    assert.equal(
      (await refused(() => changeAssistant(db, alice, ok.id, { servers: ['admins'] }))).code,
      'bad_request',
    );
    assert.deepEqual(
      (await createAssistant(db, root, { name: 'A', instructions: 'x', servers: ['admins'] })).servers,
      ['admins'],
    );
  });

  test('a shared assistant shows a user only the servers they may use', async () => {
    const shared = await createAssistant(db, root, {
      name: 'Ops',
      instructions: 'x',
      servers: ['everyone', 'admins'],
      shared: true,
    });
    assert.deepEqual(presentAssistant(alice, shared, new Set()).servers, ['everyone']);
    assert.deepEqual(presentAssistant(root, shared, new Set()).servers, ['everyone', 'admins']);
  });

  test('the body schema: name required, instructions capped, temperature 0..2, no unknown fields', async () => {
    const fields = (body: unknown) => {
      const r = AssistantCreateSchema.safeParse(body);
      return r.success ? null : r.error.issues.map((i) => i.path.join('.'));
    };
    assert.deepEqual(fields({ name: '  ', instructions: '' }), ['name']);
    assert.deepEqual(fields({ name: 'a', instructions: 'x'.repeat(MAX_INSTRUCTIONS_CHARS + 1) }), [
      'instructions',
    ]);
    assert.deepEqual(fields({ name: 'a', instructions: '', temperature: 3 }), ['temperature']);
    assert.deepEqual(fields({ name: 'a', instructions: '', toolMode: 'sometimes' }), ['toolMode']);
    assert.ok(fields({ name: 'a', instructions: '', owner: 'bob' }));
    assert.equal(
      fields({ name: 'a', instructions: 'x'.repeat(MAX_INSTRUCTIONS_CHARS), temperature: 0.2 }),
      null,
    );
  });
});

describe('a chat started with an assistant', () => {
  test("the new conversation takes its instructions and settings; the request's tool settings win", async () => {
    const a = await createAssistant(db, alice, {
      name: 'Poet',
      instructions: 'Answer in verse.',
      toolMode: 'off',
      servers: ['everyone'],
      temperature: 0.3,
    });
    const body: ChatPost = {
      id: 'conv-assist-1',
      message: { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] },
      tools: { toolMode: 'auto' },
      assistantId: a.id,
    };
    const input = await persistInput(db, {
      userId: alice.id,
      body,
      loaded: await loadTurn(db, alice.id, body),
      modelId: 'm1',
      userParts: async () => [{ type: 'text', text: 'hi' }],
      seed: assistantSeed(alice, a),
    });
    assert.equal(input.settings.instructions, 'Answer in verse.');
    assert.equal(input.settings.temperature, 0.3);
    assert.equal(input.settings.toolMode, 'auto');
    const row = await getOwnConversation(db, alice.id, 'conv-assist-1');
    assert.equal(row?.assistantId, a.id);
    assert.equal(row?.instructions, 'Answer in verse.');
    assert.deepEqual(row?.toolServers, ['everyone']);

    // Deleting the assistant keeps the conversation's own instructions.
    await removeAssistant(db, alice, a.id);
    const after = await getOwnConversation(db, alice.id, 'conv-assist-1');
    assert.equal(after?.assistantId, null);
    assert.equal(after?.instructions, 'Answer in verse.');
  });

  test('the system message: the instructions first, then the host guidance', async () => {
    const host = systemMessage(null);
    assert.ok(host.length > 0);
    assert.equal(systemMessage('   '), host);
    assert.equal(systemMessage('Answer in verse.'), `Answer in verse.\n\n${host}`);
  });
});

/**
 * Settings, users, files, audit, servers, providers and deleting an account behave the same on both
 * databases, including a message stored while its file is deleted and an audit flood. Runs on SQLite,
 * then again on a real Postgres (db/dialect-harness.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Db } from '@/db/client';
import { dialect, dialectHarness, ids } from '@/db/dialect-harness';
import { deleteUserAndData } from '@/db/queries/account';
import { countAudit, listAudit, recordAudit } from '@/db/queries/audit';
import { getOwnConversation } from '@/db/queries/conversations';
import { deleteFileIfUnused, insertFile, oldFilesOf } from '@/db/queries/files';
import { createMcpServer, getMcpServerByName, upsertMcpServers } from '@/db/queries/mcp-servers';
import { changeMessage, saveUserMessage } from '@/db/queries/message-writes';
import { listMessages } from '@/db/queries/messages';
import { createProvider } from '@/db/queries/providers';
import { getSetting, getSettings, updateSettings } from '@/db/queries/settings';
import { countUsers, updateUser } from '@/db/queries/users';
import { user } from '@/db/tables';
import { McpServerConfigSchema } from '@/lib/schemas/mcp';

let db: Db;
const { ask, answer, rerunOnPostgres } = dialectHarness(import.meta.url, (opened) => {
  db = opened;
});

test(`${dialect}: settings and users round-trip with their types`, async () => {
  assert.equal(await countUsers(db), 2);
  assert.equal(await getSetting(db, 'signupOpen'), false);
  const next = await updateSettings(db, { signupOpen: true, maxSteps: 7 });
  assert.equal(next?.signupOpen, true);
  assert.equal(await getSetting(db, 'signupOpen'), true);
  assert.equal((await getSettings(db)).maxSteps, 7);
});

/** Stores a new conversation's first message, referring to one file. */
const storeWithFile = (conversationId: string, userId: string, fileId: string) =>
  saveUserMessage(db, {
    conversationId,
    userId,
    title: 'with a file',
    model: null,
    isNew: true,
    modelChanged: false,
    message: {
      id: 'q',
      role: 'user',
      parts: [{ type: 'file', mediaType: 'text/plain', url: `/api/files/${fileId}` }],
    },
    files: [fileId],
  });

test(`${dialect}: files, audit, servers, providers and deleting an account`, async () => {
  const file = await insertFile(db, {
    id: 'f1',
    userId: 'alice',
    sha256: 'a'.repeat(64),
    name: 'a.png',
    mediaType: 'image/png',
    size: 3,
    createdAt: new Date(Date.now() - 86_400_000 * 2),
  });
  assert.equal(file.size, 3);
  assert.deepEqual(ids(await oldFilesOf(db, 'alice', new Date(), 10)), ['f1']);
  await ask('files', 'fm', 'with a file', { isNew: true });
  await changeMessage(db, 'files', 'fm', (m) => ({
    ...m,
    parts: [...m.parts, { type: 'file', mediaType: 'image/png', url: '/api/files/f1', filename: 'a.png' }],
  }));
  assert.deepEqual(await oldFilesOf(db, 'alice', new Date(), 10), []);
  assert.equal(await deleteFileIfUnused(db, 'f1', '/api/files/f1'), null, 'a message refers to it');
  await insertFile(db, {
    id: 'f2',
    userId: 'alice',
    sha256: 'b'.repeat(64),
    name: 'b',
    mediaType: 'text/plain',
    size: 1,
  });
  assert.equal((await deleteFileIfUnused(db, 'f2', '/api/files/f2'))?.id, 'f2');
  assert.equal(await deleteFileIfUnused(db, 'f2', '/api/files/f2'), null, 'gone already');

  // A message that refers to a file, stored while the file is deleted (the sweep of unsent files), 20
  // times at once (on Postgres: on many connections): either the file is kept for the message or the
  // message is refused; never a stored message whose file is gone.
  const raced = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const id = `race-file-${i}`;
      await insertFile(db, {
        id,
        userId: 'alice',
        sha256: 'c'.repeat(64),
        name: 'c',
        mediaType: 'text/plain',
        size: 1,
      });
      const url = `/api/files/${id}`;
      const [outcome, deleted] = await Promise.all([
        storeWithFile(`race-${i}`, 'alice', id),
        deleteFileIfUnused(db, id, url),
      ]);
      const stored = (await listMessages(db, `race-${i}`)).length;
      return { outcome, deleted: Boolean(deleted), stored };
    }),
  );
  for (const r of raced)
    assert.ok(
      (r.outcome === 'appended' && !r.deleted && r.stored === 1) ||
        (r.outcome === 'missing-file' && r.deleted && r.stored === 0),
      JSON.stringify(r),
    );
  // A file deleted (the sweep) after the message was checked, before it is stored: refused.
  await insertFile(db, {
    id: 'gone',
    userId: 'alice',
    sha256: 'd'.repeat(64),
    name: 'd',
    mediaType: 'text/plain',
    size: 1,
  });
  assert.equal((await deleteFileIfUnused(db, 'gone', '/api/files/gone'))?.id, 'gone');
  assert.equal(await storeWithFile('race-gone', 'alice', 'gone'), 'missing-file');
  // Another user's file is refused like a deleted one.
  assert.equal(await storeWithFile('race-bob', 'bob', 'f1'), 'missing-file');
  assert.equal(
    await getOwnConversation(db, 'bob', 'race-bob'),
    null,
    'a refused message leaves no conversation',
  );

  const denied = { userId: null, email: null, action: 'GET /x', target: null, outcome: 'denied' as const };
  await recordAudit(db, { ...denied, detail: 'one' });
  await recordAudit(db, { ...denied, detail: 'two' });
  assert.equal(await countAudit(db, 'anonymous'), 1);
  assert.equal((await listAudit(db, { kind: 'anonymous' }))[0]?.count, 2);
  // A flood at once (on Postgres: on many connections) still counts into one row.
  await Promise.all(Array.from({ length: 20 }, () => recordAudit(db, { ...denied, action: 'POST /flood' })));
  const flood = (await listAudit(db, { kind: 'anonymous' })).filter((e) => e.action === 'POST /flood');
  assert.deepEqual(
    flood.map((e) => e.count),
    [20],
  );

  const config = McpServerConfigSchema.parse({
    name: 'remote',
    transport: 'http',
    url: 'https://mcp.example.com/mcp',
    headers: { Authorization: 'Bearer canary' },
  });
  assert.ok(await createMcpServer(db, config));
  assert.equal(await createMcpServer(db, config), null, 'a taken name');
  assert.deepEqual(await upsertMcpServers(db, [config, { ...config, name: 'other' }]), {
    added: ['other'],
    updated: [],
    unchanged: ['remote'],
  });
  const stored = await getMcpServerByName(db, 'remote');
  assert.equal(stored?.config.transport === 'http' && stored.config.headers.Authorization, 'Bearer canary');
  assert.ok(await createProvider(db, { name: 'p', baseURL: 'https://api.example.com/v1', apiKey: 'k' }));
  assert.equal(await createProvider(db, { name: 'p', baseURL: 'https://api.example.com/v1' }), null);

  // A conversation whose messages refer to each other (a question, its answer, an edit beside it) goes
  // with the account.
  assert.equal(await ask('tree', 'q1', 'capital of France?', { parentId: null, isNew: true }), 'appended');
  await answer('tree', 'a1', 'Paris', 'q1');
  assert.equal(await ask('tree', 'q1b', 'capital of Italy?', { parentId: null }), 'appended');
  assert.ok(await getOwnConversation(db, 'alice', 'tree'));
  assert.equal(await deleteUserAndData(db, 'alice'), 'deleted');
  assert.equal(await getOwnConversation(db, 'alice', 'tree'), null);
  assert.equal(await deleteUserAndData(db, 'alice'), 'gone');
});

test(`${dialect}: admins demoting, disabling or deleting each other at once always leave an enabled admin`, async () => {
  const admins = ['ann', 'ben', 'cal', 'dee'];
  await db
    .insert(user)
    .values(admins.map((id) => ({ id, name: id, email: `${id}@example.com`, role: 'admin' as const })));
  const outcome = (r: Awaited<ReturnType<typeof updateUser>>) => (typeof r === 'string' ? r : 'changed');
  // Each pair at once: the first change made; the other admin is then no admin (or disabled), so theirs is not.
  const demotes = await Promise.all([
    updateUser(db, 'ann', 'ben', { role: 'user' }),
    updateUser(db, 'ben', 'ann', { role: 'user' }),
  ]);
  assert.deepEqual(demotes.map(outcome).sort(), ['changed', 'not-admin']);
  const disables = await Promise.all([
    updateUser(db, 'cal', 'dee', { disabled: true }),
    updateUser(db, 'dee', 'cal', { disabled: true }),
  ]);
  assert.deepEqual(disables.map(outcome).sort(), ['changed', 'not-admin']);
  const enabled = (await db.select().from(user)).filter((u) => u.role === 'admin' && !u.disabled);
  assert.equal(enabled.length, 2, 'one admin of each pair');
  // The two left delete their own accounts at once: the last one stays.
  const deletes = await Promise.all(enabled.map((u) => deleteUserAndData(db, u.id)));
  assert.deepEqual(deletes.sort(), ['deleted', 'last-admin']);
});

rerunOnPostgres();

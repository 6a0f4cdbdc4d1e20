import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, renameSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { getDb } from '@/db/client';
import { conversations, messages, user } from '@/db/schema';
import { findReadableFile } from '@/app/_server/file-serving';
import { readBlob, releaseFiles, sweepOrphanBlobs } from '@/app/_server/files';
import { PNG, rejects, startUploadsForFile, upload } from '@/app/_server/test-uploads';
import { deleteOwnConversation } from '@/app/_server/conversation-turns';
import { exportConversation, importConversation } from '@/app/_server/conversation-transfer';
import { listMessages } from '@/db/queries/messages';
import { resetProcessState } from '@/lib/process-state';

// Uploads against a real data folder and database: export, import and clean-up of files and their bytes.

const root = startUploadsForFile();
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

test('releasing files deletes those no message refers to, and a blob once no file keeps it', async () => {
  const db = getDb();
  const kept = await upload('alice', 'kept by a message', 'kept.txt');
  const dropped = await upload('alice', 'dropped', 'dropped.txt');
  const droppedBlob = await readBlob(await findReadableFile(dropped.id, { userId: 'alice' }));
  assert.ok(droppedBlob.length);
  db.insert(conversations).values({ id: 'conv-keep-1', userId: 'alice', title: 't' }).run();
  db.insert(messages)
    .values({
      id: 'm1',
      conversationId: 'conv-keep-1',
      role: 'user',
      seq: 1,
      parts: [{ type: 'file', mediaType: 'text/plain', url: kept.url, filename: 'kept.txt' }],
    })
    .run();
  await releaseFiles([kept.id, dropped.id]);
  assert.equal((await findReadableFile(kept.id, { userId: 'alice' })).id, kept.id);
  await rejects(() => findReadableFile(dropped.id, { userId: 'alice' }), 'not_found');
  const sha = (await import('node:crypto')).createHash('sha256').update('dropped').digest('hex');
  assert.equal(existsSync(join(root, 'data', 'files', sha.slice(0, 2), sha)), false);
});

test('a JSON export carries the files; an import stores them for the importer; deleting a conversation deletes its files', async () => {
  process.env.MAX_UPLOAD_MB = '1';
  resetProcessState();
  try {
    const db = getDb();
    const alice = { id: 'alice', name: 'alice', email: 'alice@example.com', role: 'user' as const };
    const bob = { id: 'bob', name: 'bob', email: 'bob@example.com', role: 'user' as const };
    const image = await upload('alice', PNG, 'export.png');
    db.insert(conversations).values({ id: 'conv-export-1', userId: 'alice', title: 'With a file' }).run();
    db.insert(messages)
      .values({
        id: 'm1',
        conversationId: 'conv-export-1',
        role: 'user',
        seq: 1,
        parts: [
          { type: 'text', text: 'here' },
          { type: 'file', mediaType: 'image/png', url: image.url, filename: 'export.png' },
        ],
      })
      .run();
    const exported = JSON.parse(await (await exportConversation(alice, 'conv-export-1', 'json')).text());
    const filePart = exported.messages[0].parts[1];
    assert.equal(filePart.url, `data:image/png;base64,${Buffer.from(PNG).toString('base64')}`);
    const md = await (await exportConversation(alice, 'conv-export-1', 'md')).text();
    assert.match(md, /_\(attached: export\.png\)_/);

    // Bob imports it: the image becomes a file of his; alice's URL, a foreign URL and a fake type do not pass.
    exported.messages[0].parts.push(
      { type: 'file', mediaType: 'image/png', url: image.url, filename: 'theirs.png' },
      {
        type: 'file',
        mediaType: 'image/png',
        url: `data:image/png;base64,${Buffer.from('<b>').toString('base64')}`,
        filename: 'fake.png',
      },
    );
    const { id } = await importConversation(bob, exported);
    const parts = (await listMessages(db, id))[0]?.parts ?? [];
    const mine = parts[1];
    assert.ok(mine?.type === 'file');
    assert.notEqual(mine.url, image.url);
    const row = await findReadableFile(mine.url.split('/').at(-1) ?? '', { userId: 'bob' });
    assert.deepEqual(new Uint8Array(await readBlob(row)), PNG);
    assert.deepEqual(
      parts.slice(2).map((p) => p.type === 'text' && p.text.replace(/:.*$/, '')),
      ['_(attachment theirs.png not imported', '_(attachment fake.png not imported'],
    );

    // Alice deletes her conversation: her file goes; bob's copy (same bytes, same blob) stays readable.
    await deleteOwnConversation(alice, 'conv-export-1');
    await rejects(() => findReadableFile(image.id, { userId: 'alice' }), 'not_found');
    assert.deepEqual(new Uint8Array(await readBlob(await findReadableFile(row.id, { userId: 'bob' }))), PNG);
  } finally {
    process.env.MAX_UPLOAD_MB = '0.01';
    resetProcessState();
  }
});

test("at start, blobs no file row keeps (a deleted account's) leave the disk", async () => {
  const db = getDb();
  const { files } = await import('@/db/schema');
  const { eq } = await import('drizzle-orm');
  const kept = await upload('alice', 'alice keeps this', 'kept2.txt');
  const gone = await upload('bob', 'bob account deleted', 'gone.txt');
  db.delete(files).where(eq(files.id, gone.id)).run(); // what the account's cascade does
  const path = (text: string) => join(root, 'data', 'files', sha(text).slice(0, 2), sha(text));
  assert.equal(existsSync(path('bob account deleted')), true);
  // Just written: it could be an upload in progress, so it stays until it is an hour old.
  assert.equal(await sweepOrphanBlobs(), 0);
  const hourAgo = new Date(Date.now() - 61 * 60 * 1000);
  utimesSync(path('bob account deleted'), hourAgo, hourAgo);
  assert.equal(await sweepOrphanBlobs(), 1);
  assert.equal(existsSync(path('bob account deleted')), false);
  assert.equal(existsSync(path('alice keeps this')), true);
  assert.ok(await findReadableFile(kept.id, { userId: 'alice' }));
});

test("deleting an account removes its uploads' bytes at once, except those another user's file keeps", async () => {
  const { deleteAccountAndData } = await import('@/app/_server/account');
  getDb().insert(user).values({ id: 'carol', name: 'carol', email: 'carol@example.com' }).run();
  const path = (text: string) => join(root, 'data', 'files', sha(text).slice(0, 2), sha(text));
  const own = await upload('carol', 'only carol has this', 'own.txt');
  await upload('carol', 'alice has this too', 'shared-bytes.txt');
  const alices = await upload('alice', 'alice has this too', 'same-bytes.txt');
  assert.equal(existsSync(path('only carol has this')), true);
  await deleteAccountAndData('carol');
  await rejects(() => findReadableFile(own.id, { userId: 'carol' }), 'not_found');
  assert.equal(existsSync(path('only carol has this')), false);
  assert.equal(existsSync(path('alice has this too')), true);
  assert.ok(await findReadableFile(alices.id, { userId: 'alice' }));
});

test('an import that cannot be stored (its account deleted while it runs) leaves no file behind', async () => {
  const { deleteAccountAndData } = await import('@/app/_server/account');
  const { files } = await import('@/db/schema');
  const { eq } = await import('drizzle-orm');
  const db = getDb();
  const dora = { id: 'dora', name: 'dora', email: 'dora@example.com', role: 'user' as const };
  db.insert(user).values(dora).run();
  const bytes = 'only in the import';
  const sha = createHash('sha256').update(bytes).digest('hex');
  const importing = importConversation(dora, {
    title: 'Never stored',
    messages: [
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'see the file' },
          {
            type: 'file',
            mediaType: 'text/plain',
            url: `data:text/plain;base64,${Buffer.from(bytes).toString('base64')}`,
            filename: 'gone.txt',
          },
        ],
      },
    ],
  });
  // The account goes (another tab, an admin) after the import's session was checked, before it is stored.
  await deleteAccountAndData('dora');
  await assert.rejects(importing, /FOREIGN KEY/);
  assert.equal(existsSync(join(root, 'data', 'files', sha.slice(0, 2), sha)), false, 'its bytes are gone');
  assert.deepEqual(await db.select().from(files).where(eq(files.userId, 'dora')), []);
  assert.deepEqual(await db.select().from(conversations).where(eq(conversations.userId, 'dora')), []);
});

test('a file uploaded while a conversation holding the same bytes is deleted keeps its bytes', async () => {
  const db = getDb();
  const alice = { id: 'alice', name: 'alice', email: 'alice@example.com', role: 'user' as const };
  for (const [i, uploadAt] of ['at once', 'a moment later'].entries()) {
    const bytes = `the same picture, ${uploadAt}`;
    const old = await upload('alice', bytes, 'photo.txt');
    const conversationId = `conv-same-bytes-${i}`;
    await db.insert(conversations).values({ id: conversationId, userId: 'alice', title: 't' });
    await db.insert(messages).values({
      id: `m-same-${i}`,
      conversationId,
      role: 'user',
      seq: 1,
      parts: [{ type: 'file', mediaType: 'text/plain', url: old.url, filename: 'photo.txt' }],
    });
    // Alice deletes that conversation (its file and, as no other file keeps them, its bytes go) while bob
    // uploads the same bytes: his upload finds the blob still there and does not write it again.
    const deleting = deleteOwnConversation(alice, conversationId);
    if (i) await new Promise((resolve) => setImmediate(resolve));
    const fresh = await upload('bob', bytes, 'mine.txt');
    await deleting;
    const row = await findReadableFile(fresh.id, { userId: 'bob' });
    assert.equal((await readBlob(row)).toString(), bytes, `uploaded ${uploadAt}`);
  }
});

test('a file imported while a conversation holding the same bytes is deleted keeps its bytes', async () => {
  const db = getDb();
  const alice = { id: 'alice', name: 'alice', email: 'alice@example.com', role: 'user' as const };
  const bob = { id: 'bob', name: 'bob', email: 'bob@example.com', role: 'user' as const };
  // The import starts 0..N turns of the job queue after the delete, so its write lands before, during and
  // after the removal of the blob.
  for (let hops = 0; hops < 24; hops++) {
    const bytes = `the same notes, imported after ${hops} hops`;
    const old = await upload('alice', bytes, 'notes.txt');
    const conversationId = `conv-import-same-${hops}`;
    await db.insert(conversations).values({ id: conversationId, userId: 'alice', title: 't' });
    await db.insert(messages).values({
      id: `m-import-same-${hops}`,
      conversationId,
      role: 'user',
      seq: 1,
      parts: [{ type: 'file', mediaType: 'text/plain', url: old.url, filename: 'notes.txt' }],
    });
    const deleting = deleteOwnConversation(alice, conversationId);
    for (let i = 0; i < hops; i++) await Promise.resolve();
    const { id } = await importConversation(bob, {
      title: 'Imported notes',
      messages: [
        {
          role: 'user',
          parts: [
            {
              type: 'file',
              mediaType: 'text/plain',
              url: `data:text/plain;base64,${Buffer.from(bytes).toString('base64')}`,
              filename: 'notes.txt',
            },
          ],
        },
      ],
    });
    await deleting;
    const part = (await listMessages(db, id))[0]?.parts[0];
    assert.ok(part?.type === 'file');
    const row = await findReadableFile(part.url.split('/').at(-1) ?? '', { userId: 'bob' });
    const read = await readBlob(row).then(String, () => 'its bytes are gone');
    assert.equal(read, bytes, `imported after ${hops} hops`);
  }
});

test('at start, a blob a stopped removal had moved aside is moved back when a file keeps it, else removed', async () => {
  const kept = await upload('alice', 'moved aside but kept', 'aside.txt');
  const path = (text: string) => join(root, 'data', 'files', sha(text).slice(0, 2), sha(text));
  // What a removal leaves when its process is killed between moving the blob aside and deleting it.
  renameSync(path('moved aside but kept'), `${path('moved aside but kept')}.0123456789ab.removing`);
  await upload('bob', 'moved aside, no file', 'gone.txt');
  const { files } = await import('@/db/schema');
  const { eq } = await import('drizzle-orm');
  await getDb()
    .delete(files)
    .where(eq(files.sha256, sha('moved aside, no file')));
  renameSync(path('moved aside, no file'), `${path('moved aside, no file')}.ba9876543210.removing`);
  await sweepOrphanBlobs();
  assert.equal(
    (await readBlob(await findReadableFile(kept.id, { userId: 'alice' }))).toString(),
    'moved aside but kept',
  );
  const folder = readdirSync(join(root, 'data', 'files', sha('moved aside, no file').slice(0, 2)));
  assert.deepEqual(
    folder.filter((n) => n.startsWith(sha('moved aside, no file'))),
    [],
  );
});

test('a file read while a removal of the same bytes has them moved aside is read once they are back', async () => {
  const file = await upload('alice', 'read while aside', 'aside-read.txt');
  const path = join(root, 'data', 'files', sha('read while aside').slice(0, 2), sha('read while aside'));
  const row = await findReadableFile(file.id, { userId: 'alice' });
  // What a removal does when it finds a row keeping the blob on its second look: moved aside, then back.
  renameSync(path, `${path}.0123456789ab.removing`);
  const reading = readBlob(row);
  await new Promise((resolve) => setTimeout(resolve, 60));
  renameSync(`${path}.0123456789ab.removing`, path);
  assert.equal((await reading).toString(), 'read while aside');
  // Gone for good: a 404 (after the short wait), not an error of the disk.
  renameSync(path, `${path}.gone`);
  await assert.rejects(readBlob(row), (err: unknown) => (err as { code?: string }).code === 'not_found');
});

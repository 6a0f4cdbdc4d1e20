import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { getDb } from '@/db/client';
import { conversations, messages } from '@/db/schema';
import { findReadableFile } from '@/app/_server/file-serving';
import { receiveUpload } from '@/app/_server/file-uploads';
import { readBlob, readFileText } from '@/app/_server/files';
import { PNG, rejects, startUploadsForFile, upload } from '@/app/_server/test-uploads';
import { minimalPdf } from '@/lib/files/test-pdf';

// Uploads against a real data folder and database: ownership, limits, types, and the sweep of unsent files.

const root = startUploadsForFile();

test('an upload is stored by content for its owner and answers { id, url, name, mediaType, size }', async () => {
  const file = await upload('alice', PNG, 'cat.png', 'image/png');
  assert.match(file.id, /^[A-Za-z0-9_-]{16,64}$/);
  assert.equal(file.url, `/api/files/${file.id}`);
  assert.deepEqual(
    { name: file.name, mediaType: file.mediaType, size: file.size },
    { name: 'cat.png', mediaType: 'image/png', size: PNG.length },
  );
  const row = await findReadableFile(file.id, { userId: 'alice' });
  assert.deepEqual(new Uint8Array(await readBlob(row)), PNG);
  // Same bytes again (even by another user): a new file of theirs, one blob on disk, private to the owner.
  const again = await upload('bob', PNG, 'copy.png');
  assert.notEqual(again.id, file.id);
  const blobs = readdirSync(join(root, 'data', 'files'), { recursive: true, withFileTypes: true }).filter(
    (e) => e.isFile(),
  );
  assert.equal(blobs.length, 1);
  assert.equal(statSync(join(blobs[0]?.parentPath ?? '', blobs[0]?.name ?? '')).mode & 0o777, 0o600);
});

test('over the MAX_UPLOAD_MB limit is a 413; a type the content does not back is a 400', async () => {
  const big = await rejects(upload('alice', 'x'.repeat(11 * 1024), 'big.txt'), 'payload_too_large');
  assert.match(big.message, /0\.01 MB limit/);
  // Far over: refused from Content-Length alone, before the body is read.
  const huge = new Request('http://localhost/api/files', {
    method: 'POST',
    headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(10_000_000) },
    body: 'x',
  });
  await rejects(receiveUpload('alice', huge), 'payload_too_large');
  const fake = await rejects(
    upload('alice', '<script>alert(1)</script>', 'cat.png', 'image/png'),
    'bad_request',
  );
  assert.match(fake.message, /not a PNG, JPEG, GIF or WebP image/);
  await rejects(upload('alice', Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]), 'tool'), 'bad_request');
  await rejects(
    receiveUpload('alice', new Request('http://localhost/api/files', { method: 'POST', body: '{}' })),
    'bad_request',
  );
  const empty = new FormData();
  empty.set('other', 'x');
  await rejects(
    receiveUpload('alice', new Request('http://localhost/api/files', { method: 'POST', body: empty })),
    'bad_request',
  );
});

test('a PDF is read once at upload; its text is what the model gets', async () => {
  const file = await upload('alice', minimalPdf(['Invoice total 42 EUR']), 'invoice.pdf');
  assert.equal(file.mediaType, 'application/pdf');
  assert.match(
    await readFileText(await findReadableFile(file.id, { userId: 'alice' })),
    /Invoice total 42 EUR/,
  );
  // A PDF that cannot be read is refused before its bytes are written.
  await rejects(upload('alice', '%PDF-1.4\nbroken', 'broken.pdf'), 'bad_request');
  const sha = createHash('sha256').update('%PDF-1.4\nbroken').digest('hex');
  assert.equal(existsSync(join(root, 'data', 'files', sha.slice(0, 2), sha)), false);
});

test('files uploaded but never sent are swept a day later; sent or shared ones stay', async () => {
  const db = getDb();
  const { files } = await import('@/db/schema');
  const { eq } = await import('drizzle-orm');
  const unsent = await upload('bob', 'never sent', 'unsent.txt');
  const sentFile = await upload('bob', 'sent', 'sent.txt');
  const fresh = await upload('bob', 'just now', 'fresh.txt');
  db.insert(conversations).values({ id: 'conv-sweep-1', userId: 'bob', title: 't' }).run();
  db.insert(messages)
    .values({
      id: 'm1',
      conversationId: 'conv-sweep-1',
      role: 'user',
      seq: 1,
      parts: [{ type: 'file', mediaType: 'text/plain', url: sentFile.url, filename: 'sent.txt' }],
    })
    .run();
  const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
  for (const f of [unsent, sentFile])
    db.update(files).set({ createdAt: dayAgo }).where(eq(files.id, f.id)).run();
  await upload('bob', 'next upload', 'next.txt');
  await rejects(() => findReadableFile(unsent.id, { userId: 'bob' }), 'not_found');
  assert.equal((await findReadableFile(sentFile.id, { userId: 'bob' })).id, sentFile.id);
  assert.equal((await findReadableFile(fresh.id, { userId: 'bob' })).id, fresh.id);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getDb } from '@/db/client';
import { createShare } from '@/db/queries/shares';
import { conversations } from '@/db/schema';
import { fileResponse, findReadableFile } from '@/app/_server/file-serving';
import { readBlob } from '@/app/_server/files';
import { PNG, rejects, startUploadsForFile, upload } from '@/app/_server/test-uploads';

// Serving uploads from a real data folder and database: who may read a file, and how it is answered.

startUploadsForFile();

test("another user's file, an unknown id and a malformed id are the same 404", async () => {
  const file = await upload('alice', 'secret notes', 'notes.txt');
  await rejects(() => findReadableFile(file.id, { userId: 'bob' }), 'not_found');
  await rejects(() => findReadableFile('A'.repeat(22), { userId: 'alice' }), 'not_found');
  await rejects(() => findReadableFile('../../etc/passwd', { userId: 'alice' }), 'not_found');
  await rejects(() => findReadableFile(file.id, {}), 'not_found');
});

test('files are served as downloads (images inline), never sniffed, never as HTML', async () => {
  const html = await upload('alice', '<html><script>alert(1)</script></html>', 'page.html', 'text/html');
  assert.equal(html.mediaType, 'text/plain');
  const row = await findReadableFile(html.id, { userId: 'alice' });
  const res = fileResponse(row, await readBlob(row), new Request('http://localhost/'), false);
  assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
  assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="page.html"/);
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  assert.match(res.headers.get('content-security-policy') ?? '', /sandbox/);
  const image = await upload('alice', PNG, 'ünïcode "cat".png');
  const imageRow = await findReadableFile(image.id, { userId: 'alice' });
  const shown = fileResponse(imageRow, await readBlob(imageRow), new Request('http://localhost/'), false);
  assert.equal(shown.headers.get('content-type'), 'image/png');
  assert.equal(
    shown.headers.get('content-disposition'),
    `inline; filename="_n_code cat.png"; filename*=UTF-8''%C3%BCn%C3%AFcode%20cat.png`,
  );
});

test('a share reads only the files its snapshot includes, and only its owner’s', async () => {
  const db = getDb();
  const shared = await upload('alice', 'shared text', 'shared.txt');
  const other = await upload('alice', 'not shared', 'other.txt');
  const bobs = await upload('bob', 'bob text', 'bob.txt');
  db.insert(conversations).values({ id: 'conv-share-1', userId: 'alice', title: 't' }).run();
  const token = 'T'.repeat(32);
  await createShare(db, {
    token,
    conversationId: 'conv-share-1',
    userId: 'alice',
    title: 't',
    snapshot: [
      {
        role: 'user',
        parts: [
          { type: 'file', id: shared.id, name: 'shared.txt', mediaType: 'text/plain' },
          // A snapshot naming someone else's file still does not open it.
          { type: 'file', id: bobs.id, name: 'bob.txt', mediaType: 'text/plain' },
        ],
      },
    ],
  });
  assert.equal((await findReadableFile(shared.id, { share: token })).id, shared.id);
  await rejects(() => findReadableFile(other.id, { share: token }), 'not_found');
  await rejects(() => findReadableFile(bobs.id, { share: token }), 'not_found');
  await rejects(() => findReadableFile(shared.id, { share: 'U'.repeat(32) }), 'not_found');
});

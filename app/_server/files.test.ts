import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { getDb } from '@/db/client';
import { createShare } from '@/db/queries/shares';
import { conversations, messages, user } from '@/db/schema';
import {
  attachmentsForModel,
  fileResponse,
  findReadableFile,
  readBlob,
  readFileText,
  receiveUpload,
  releaseFiles,
  sweepOrphanBlobs,
} from '@/app/_server/files';
import { deleteOwnConversation } from '@/app/_server/conversation-turns';
import { exportConversation, importConversation } from '@/app/_server/conversation-transfer';
import { listMessages } from '@/db/queries/messages';
import { AppError } from '@/lib/errors';
import { MAX_EXTRACT_CHARS } from '@/lib/files/sniff';
import type { ChatMessage } from '@/lib/schemas/chat';
import { minimalPdf } from '@/lib/files/test-pdf';
import { resetProcessState } from '@/lib/process-state';

// Uploads against a real data folder and database: ownership, limits, types, serving and clean-up.

const root = mkdtempSync(join(tmpdir(), 'files-'));
const saved = { ...process.env };
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

before(async () => {
  resetProcessState();
  process.env.DATABASE_PATH = join(root, 'data', 'app.db');
  process.env.MAX_UPLOAD_MB = '0.01'; // 10 KB
  for (const id of ['alice', 'bob'])
    getDb()
      .insert(user)
      .values({ id, name: id, email: `${id}@example.com` })
      .run();
});
after(async () => {
  resetProcessState();
  process.env = { ...saved };
  rmSync(root, { recursive: true, force: true });
});

function upload(
  userId: string,
  bytes: Uint8Array<ArrayBuffer> | string,
  name: string,
  type = 'application/octet-stream',
) {
  const form = new FormData();
  form.set('file', new File([bytes], name, { type }));
  return receiveUpload(userId, new Request('http://localhost/api/files', { method: 'POST', body: form }));
}

async function rejects(promise: Promise<unknown> | (() => unknown), status: AppError['code']) {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (err) {
    assert.ok(err instanceof AppError, String(err));
    assert.equal(err.code, status, err.message);
    return err;
  }
  assert.fail(`expected ${status}`);
}

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

test("another user's file, an unknown id and a malformed id are the same 404", async () => {
  const file = await upload('alice', 'secret notes', 'notes.txt');
  await rejects(() => findReadableFile(file.id, { userId: 'bob' }), 'not_found');
  await rejects(() => findReadableFile('A'.repeat(22), { userId: 'alice' }), 'not_found');
  await rejects(() => findReadableFile('../../etc/passwd', { userId: 'alice' }), 'not_found');
  await rejects(() => findReadableFile(file.id, {}), 'not_found');
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
  await rejects(upload('alice', '%PDF-1.4\nbroken', 'broken.pdf'), 'bad_request');
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

test('the model gets images as image parts (or, without vision, a note) and files as text, cut when long', async () => {
  process.env.MAX_UPLOAD_MB = '1';
  resetProcessState();
  try {
    const image = await upload('alice', PNG, 'chart.png');
    const long = await upload('alice', 'y'.repeat(MAX_EXTRACT_CHARS + 500), 'long.txt');
    const pdf = await upload('alice', minimalPdf(['Board minutes']), 'minutes.pdf');
    const bobs = await upload('bob', 'bob only', 'bob.txt');
    const part = (f: { url: string; mediaType: string; name: string }) => ({
      type: 'file' as const,
      url: f.url,
      mediaType: f.mediaType,
      filename: f.name,
    });
    const history: ChatMessage[] = [
      {
        id: 'u1',
        role: 'user',
        parts: [{ type: 'text', text: 'look' }, part(image), part(long), part(pdf), part(bobs)],
      },
    ];
    const seen = await attachmentsForModel('alice', history, true);
    const [text, img, longText, pdfText, foreign] = seen.history[0]?.parts ?? [];
    assert.deepEqual(text, { type: 'text', text: 'look' });
    assert.equal(img?.type, 'file');
    assert.equal(
      img?.type === 'file' && img.url,
      `data:image/png;base64,${Buffer.from(PNG).toString('base64')}`,
    );
    assert.ok(longText?.type === 'text');
    assert.match(longText.text, /^<attachment name="long.txt" type="text\/plain">/);
    assert.match(longText.text, /cut: the file has 50500 characters; only the first 50000 are included/);
    assert.ok(pdfText?.type === 'text' && /Board minutes/.test(pdfText.text));
    assert.deepEqual(foreign, { type: 'text', text: '[Attachment "bob.txt": no longer available.]' });
    assert.deepEqual(seen.withheld, []);
    // The stored history is not changed.
    assert.equal(history[0]?.parts[1]?.type, 'file');

    const blind = await attachmentsForModel('alice', history, false);
    assert.deepEqual(blind.history[0]?.parts[1], {
      type: 'text',
      text: '[Image "chart.png" attached by the user: this model cannot view images, so it was not sent.]',
    });
    assert.deepEqual(blind.withheld, ['chart.png']);
  } finally {
    process.env.MAX_UPLOAD_MB = '0.01';
    resetProcessState();
  }
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

test("at start, blobs no file row keeps (a deleted account's) leave the disk", async () => {
  const db = getDb();
  const { files } = await import('@/db/schema');
  const { eq } = await import('drizzle-orm');
  const kept = await upload('alice', 'alice keeps this', 'kept2.txt');
  const gone = await upload('bob', 'bob account deleted', 'gone.txt');
  db.delete(files).where(eq(files.id, gone.id)).run(); // what the account's cascade does
  const sha = (text: string) => createHash('sha256').update(text).digest('hex');
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
  const sha = (text: string) => createHash('sha256').update(text).digest('hex');
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

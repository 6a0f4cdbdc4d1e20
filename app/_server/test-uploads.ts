// Test helpers for the files tests: a real data folder and database per test file, and uploads into it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { receiveUpload } from '@/app/_server/file-uploads';
import { getDb } from '@/db/client';
import { user } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { resetProcessState } from '@/lib/process-state';

export const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82,
]);

/**
 * A data folder and database for the calling test file (MAX_UPLOAD_MB 0.01, i.e. 10 KB) with the users
 * alice and bob, removed after it; answers the folder.
 */
export function startUploadsForFile(): string {
  const root = mkdtempSync(join(tmpdir(), 'files-'));
  const saved = { ...process.env };
  before(async () => {
    resetProcessState();
    process.env.DATABASE_PATH = join(root, 'data', 'app.db');
    process.env.MAX_UPLOAD_MB = '0.01'; // 10 KB
    // Awaited, not `.run()`: outside test files, only queries both databases have (db/portable.test.ts).
    for (const id of ['alice', 'bob'])
      await getDb()
        .insert(user)
        .values({ id, name: id, email: `${id}@example.com` });
  });
  after(async () => {
    resetProcessState();
    process.env = { ...saved };
    rmSync(root, { recursive: true, force: true });
  });
  return root;
}

export function upload(
  userId: string,
  bytes: Uint8Array<ArrayBuffer> | string,
  name: string,
  type = 'application/octet-stream',
) {
  const form = new FormData();
  form.set('file', new File([bytes], name, { type }));
  return receiveUpload(userId, new Request('http://localhost/api/files', { method: 'POST', body: form }));
}

export async function rejects(promise: Promise<unknown> | (() => unknown), status: AppError['code']) {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (err) {
    assert.ok(err instanceof AppError, String(err));
    assert.equal(err.code, status, err.message);
    return err;
  }
  assert.fail(`expected ${status}`);
}

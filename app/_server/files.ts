import 'server-only';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { getDb } from '@/db/client';
import { blobInUse, deleteFileIfUnused, type FileRow } from '@/db/queries/files';
import { getEnv } from '@/lib/env';
import { notFound } from '@/lib/errors';
import { extractPdfText } from '@/lib/files/pdf';
import { kindOf } from '@/lib/files/sniff';
import { ensurePrivateDir } from '@/lib/private-files';

/**
 * Uploaded files (SPEC §7.4): bytes in the data folder under `files/`, content-addressed by SHA-256;
 * a `files` row per upload says whose it is. Only the owner reads a file, or anyone holding a share
 * link whose snapshot includes it. A PDF's text is extracted once, at upload, into `<sha>.txt`.
 */

export const FILE_ID = /^[A-Za-z0-9_-]{16,64}$/;
const FILE_URL = /^\/api\/files\/([A-Za-z0-9_-]{16,64})$/;

export const fileUrl = (id: string) => `/api/files/${id}`;
export const fileIdOf = (url: string): string | null => FILE_URL.exec(url)?.[1] ?? null;

/** What POST /api/files answers (SPEC §7.4). */
export type PublicFile = { id: string; url: string; name: string; mediaType: string; size: number };
export const toPublicFile = (row: FileRow): PublicFile => ({
  id: row.id,
  url: fileUrl(row.id),
  name: row.name,
  mediaType: row.mediaType,
  size: row.size,
});

const filesDir = () => join(getEnv().dataDir, 'files');
export const blobPath = (sha: string) => join(filesDir(), sha.slice(0, 2), sha);
export const textPath = (sha: string) => `${blobPath(sha)}.txt`;

/** Writes a file atomically (temp file + rename), mode 0600, creating its folder (0700). */
export async function writePrivate(path: string, data: Uint8Array | string): Promise<void> {
  const dir = dirname(path);
  if (!existsSync(dir)) {
    ensurePrivateDir(filesDir());
    await mkdir(dir, { recursive: true, mode: 0o700 });
  }
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, data, { mode: 0o600 });
  await rename(tmp, path);
}

/** How long a read of a missing blob waits for a removal that moved it aside to move it back. */
const MOVED_BACK_WITHIN_MS = [25, 100, 250];

/**
 * A file's bytes. A removal of the same bytes running right now (another file of that content going,
 * in any process) moves the blob aside and back while it looks at the rows again ({@link
 * removeBlobIfUnused}): a read that finds it missing looks again a few times before answering 404.
 */
export async function readBlob(row: Pick<FileRow, 'sha256'>): Promise<Buffer> {
  for (const wait of [...MOVED_BACK_WITHIN_MS, null]) {
    try {
      return await readFile(blobPath(row.sha256));
    } catch (err) {
      if (wait === null || (err as NodeJS.ErrnoException).code !== 'ENOENT') break;
      await sleep(wait);
    }
  }
  throw notFound('File not found.');
}

/** The extracted text of a PDF, or the text of a text file. */
export async function readFileText(row: Pick<FileRow, 'sha256' | 'mediaType'>): Promise<string> {
  if (kindOf(row.mediaType) === 'pdf') {
    try {
      return await readFile(textPath(row.sha256), 'utf8');
    } catch {
      const text = await extractPdfText(await readBlob(row));
      await writePrivate(textPath(row.sha256), text);
      return text;
    }
  }
  return (await readBlob(row)).toString('utf8');
}

/**
 * After a conversation is deleted: its files that no stored message refers to any more are deleted, and
 * a blob no file row keeps any more leaves the disk.
 */
export async function releaseFiles(ids: Iterable<string>): Promise<void> {
  const db = getDb();
  for (const id of new Set(ids)) {
    const row = await deleteFileIfUnused(db, id, fileUrl(id));
    if (row) await removeBlobIfUnused(row.sha256);
  }
}

/** Blobs no file row keeps any more (e.g. after their owner's account was deleted) leave the disk now. */
export async function removeUnusedBlobs(sha256s: Iterable<string>): Promise<void> {
  for (const sha of new Set(sha256s)) await removeBlobIfUnused(sha);
}

/**
 * Removes a blob (and its text) unless a file row keeps it. Safe against a file of the same content stored
 * at that moment in any process sharing the data folder (the workers of `npm start`, an import): the blob
 * is first moved aside, and only then are the rows looked at again. A new file's row is written before
 * its bytes are made sure of ({@link keepBlob}), so either that finds the blob moved aside and writes it
 * again, or this second look sees the row and the blob is moved back. A blob other files keep is never
 * moved (the first look).
 */
async function removeBlobIfUnused(sha: string): Promise<void> {
  const db = getDb();
  if (await blobInUse(db, sha)) return;
  const path = blobPath(sha);
  const aside = `${path}.${randomBytes(6).toString('hex')}.removing`;
  try {
    await rename(path, aside);
  } catch {
    return; // not there (removed already, or by another removal right now)
  }
  if (await blobInUse(db, sha)) {
    // Kept after all. A copy written meanwhile has the same bytes, so either one may stay.
    await rename(aside, path);
    return;
  }
  await rm(aside, { force: true });
  await rm(textPath(sha), { force: true });
}

/**
 * Once a file's row is stored: its bytes are on disk. An upload finds the blob there already when a file of
 * the same content exists; a removal that looked before the row was written may take it away meanwhile
 * (deleting a conversation with that file, the sweep of unsent files, in this process or another one), so
 * a blob not there is written again. The text of a PDF is made again when it is read (readFileText).
 */
export async function keepBlob(sha: string, bytes: Uint8Array): Promise<void> {
  if (!existsSync(blobPath(sha))) await writePrivate(blobPath(sha), bytes);
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
/** A blob moved aside by {@link removeBlobIfUnused}. */
const MOVED_ASIDE = /^([0-9a-f]{64})\.[0-9a-f]{12}\.removing$/;

/**
 * At start: blobs no file row keeps any more (their owner's account was deleted, which drops the rows
 * with it) leave the disk. Answers how many went. A blob a removal had moved aside when its process
 * stopped is moved back if a file keeps it, else it goes as well.
 */
export async function sweepOrphanBlobs(): Promise<number> {
  const db = getDb();
  let removed = 0;
  let folders: string[];
  try {
    folders = await readdir(filesDir());
  } catch {
    return 0; // no uploads yet
  }
  for (const folder of folders) {
    let names: string[];
    try {
      names = await readdir(join(filesDir(), folder));
    } catch {
      continue;
    }
    for (const name of names) {
      const aside = MOVED_ASIDE.exec(name)?.[1];
      if (aside) {
        const from = join(filesDir(), folder, name);
        if ((await blobInUse(db, aside)) && !existsSync(blobPath(aside))) await rename(from, blobPath(aside));
        else await rm(from, { force: true });
        continue;
      }
      if (!SHA256_HEX.test(name) || (await blobInUse(db, name))) continue;
      // A blob written in the last hour may belong to an upload whose row is being written right now.
      const written = await stat(blobPath(name)).catch(() => null);
      if (!written || written.mtimeMs > Date.now() - 60 * 60 * 1000) continue;
      await removeBlobIfUnused(name);
      if (!existsSync(blobPath(name))) removed++;
    }
  }
  return removed;
}

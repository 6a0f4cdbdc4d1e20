import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  blobPath,
  keepBlob,
  type PublicFile,
  releaseFiles,
  textPath,
  toPublicFile,
  writePrivate,
} from '@/app/_server/files';
import { getDb } from '@/db/client';
import { insertFile, type NewFileRow, oldFilesOf } from '@/db/queries/files';
import { getEnv } from '@/lib/env';
import { AppError } from '@/lib/errors';
import { extractPdfText } from '@/lib/files/pdf';
import { cleanFileName, sniffFile } from '@/lib/files/sniff';
import { readBodyBytes } from '@/lib/http';

/**
 * Receiving files (POST /api/files, imports) and sweeping those never sent; where the bytes live and how
 * they leave: app/_server/files.ts.
 */

/** Multipart overhead allowed on top of the file itself (boundaries, part headers, a long file name). */
const MULTIPART_SLACK = 64 * 1024;

export const maxUploadBytes = () => Math.floor(getEnv().MAX_UPLOAD_MB * 1024 * 1024);

const tooLarge = () =>
  new AppError('payload_too_large', `The file is over the ${getEnv().MAX_UPLOAD_MB} MB limit.`, {
    file: 'too large',
  });

/** POST /api/files: the multipart field `file`, checked by its content, stored for its uploader. */
export async function receiveUpload(userId: string, req: Request): Promise<PublicFile> {
  const max = maxUploadBytes();
  const contentType = req.headers.get('content-type') ?? '';
  if (!contentType.toLowerCase().startsWith('multipart/form-data'))
    throw new AppError('bad_request', 'Send the file as multipart/form-data, in the field "file".', {
      file: 'required',
    });
  const body = await readBodyBytes(
    req,
    max + MULTIPART_SLACK,
    `The file is over the ${getEnv().MAX_UPLOAD_MB} MB limit.`,
  );
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new AppError('bad_request', 'The upload is not valid multipart/form-data.', { file: 'required' });
  }
  const file = form.get('file');
  if (!(file instanceof File))
    throw new AppError('bad_request', 'No file in the field "file".', { file: 'required' });
  if (file.size > max) throw tooLarge();
  return storeFile(userId, new Uint8Array(await file.arrayBuffer()), file.name);
}

/** Checks the bytes (type by content, size) and stores them as a file of this user (uploads). */
export async function storeFile(userId: string, bytes: Uint8Array, fileName: string): Promise<PublicFile> {
  const row = await insertFile(getDb(), await writeFileBytes(userId, bytes, fileName));
  await keepBlob(row.sha256, bytes);
  await sweepUnsent(userId);
  return toPublicFile(row);
}

/**
 * Checks the bytes (type by content, size) and puts them in the data folder (once per content); answers
 * the row, under a new id, that makes them a file of this user, for the caller to insert (an import inserts
 * its files with its conversation, in one transaction).
 */
export async function writeFileBytes(
  userId: string,
  bytes: Uint8Array,
  fileName: string,
): Promise<NewFileRow> {
  if (bytes.length > maxUploadBytes()) throw tooLarge();
  const name = cleanFileName(fileName);
  const sniffed = sniffFile(bytes, name);
  if (!sniffed.ok) throw new AppError('bad_request', sniffed.reason, { file: 'type not allowed' });

  const sha256 = createHash('sha256').update(bytes).digest('hex');
  // A PDF is read before anything is written, so one that cannot be read leaves nothing in the folder.
  let text: string | null = null;
  if (sniffed.kind === 'pdf' && !existsSync(textPath(sha256))) {
    try {
      text = await extractPdfText(bytes);
    } catch {
      throw new AppError('bad_request', 'This PDF could not be read (damaged or encrypted).', {
        file: 'unreadable PDF',
      });
    }
  }
  if (!existsSync(blobPath(sha256))) await writePrivate(blobPath(sha256), bytes);
  if (text !== null) await writePrivate(textPath(sha256), text);
  const id = randomBytes(16).toString('base64url');
  return { id, userId, sha256, name, mediaType: sniffed.mediaType, size: bytes.length };
}

/** A file uploaded but never sent (its chip removed, the tab closed) is deleted after this long. */
export const UNSENT_FILE_MS = 24 * 60 * 60 * 1000;

/** Deletes a few of the user's files older than UNSENT_FILE_MS that no message or share refers to. */
export async function sweepUnsent(userId: string, now = Date.now()): Promise<void> {
  const db = getDb();
  const old = await oldFilesOf(db, userId, new Date(now - UNSENT_FILE_MS), 20);
  await releaseFiles(old.map((row) => row.id));
}

import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { getDb } from '@/db/client';
import {
  blobInUse,
  deleteFileIfUnused,
  type FileRow,
  getFile,
  getOwnFile,
  insertFile,
  oldFilesOf,
} from '@/db/queries/files';
import { getShareByToken } from '@/db/queries/shares';
import { getEnv } from '@/lib/env';
import { AppError, notFound } from '@/lib/errors';
import { extractPdfText } from '@/lib/files/pdf';
import { cutText, kindOf, sniffFile } from '@/lib/files/sniff';
import type { ChatMessage, ChatPart } from '@/lib/schemas/chat';
import { readBodyBytes } from '@/lib/http';
import { ensurePrivateDir } from '@/lib/private-files';
import { SHARE_TOKEN } from '@/lib/share/token';

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

/** Multipart overhead allowed on top of the file itself (boundaries, part headers, a long file name). */
const MULTIPART_SLACK = 64 * 1024;

export const maxUploadBytes = () => Math.floor(getEnv().MAX_UPLOAD_MB * 1024 * 1024);

const filesDir = () => join(getEnv().dataDir, 'files');
const blobPath = (sha: string) => join(filesDir(), sha.slice(0, 2), sha);
const textPath = (sha: string) => `${blobPath(sha)}.txt`;

/** A name fit to show and to send in Content-Disposition: no path, no control characters, ≤ 200 characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).at(-1) ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  return clean.slice(0, 200) || 'file';
}

/** Writes a file atomically (temp file + rename), mode 0600, creating its folder (0700). */
async function writePrivate(path: string, data: Uint8Array | string): Promise<void> {
  const dir = dirname(path);
  if (!existsSync(dir)) {
    ensurePrivateDir(filesDir());
    await mkdir(dir, { recursive: true, mode: 0o700 });
  }
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, data, { mode: 0o600 });
  await rename(tmp, path);
}

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

/** Checks the bytes (type by content, size) and stores them as a file of this user (uploads, imports). */
export async function storeFile(userId: string, bytes: Uint8Array, fileName: string): Promise<PublicFile> {
  if (bytes.length > maxUploadBytes()) throw tooLarge();
  const name = cleanFileName(fileName);
  const sniffed = sniffFile(bytes, name);
  if (!sniffed.ok) throw new AppError('bad_request', sniffed.reason, { file: 'type not allowed' });

  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (!existsSync(blobPath(sha256))) await writePrivate(blobPath(sha256), bytes);
  if (sniffed.kind === 'pdf' && !existsSync(textPath(sha256))) {
    let text: string;
    try {
      text = await extractPdfText(bytes);
    } catch {
      throw new AppError('bad_request', 'This PDF could not be read (damaged or encrypted).', {
        file: 'unreadable PDF',
      });
    }
    await writePrivate(textPath(sha256), text);
  }
  const row = await insertFile(getDb(), {
    id: randomBytes(16).toString('base64url'),
    userId,
    sha256,
    name,
    mediaType: sniffed.mediaType,
    size: bytes.length,
  });
  await sweepUnsent(userId);
  return toPublicFile(row);
}

/** A file uploaded but never sent (its chip removed, the tab closed) is deleted after this long. */
export const UNSENT_FILE_MS = 24 * 60 * 60 * 1000;

/** Deletes a few of the user's files older than UNSENT_FILE_MS that no message or share refers to. */
export async function sweepUnsent(userId: string, now = Date.now()): Promise<void> {
  const db = getDb();
  const old = await oldFilesOf(db, userId, new Date(now - UNSENT_FILE_MS), 20);
  await releaseFiles(old.map((row) => row.id));
}

/**
 * A file for GET /api/files/[id]: the owner's, or — with `share` — one that the share's snapshot
 * includes. Anything else (unknown, another user's, not in that share) is the same 404.
 */
export async function findReadableFile(
  id: string,
  opts: { userId?: string; share?: string },
): Promise<FileRow> {
  if (!FILE_ID.test(id)) throw notFound('File not found.');
  const db = getDb();
  if (opts.share !== undefined) {
    if (!SHARE_TOKEN.test(opts.share)) throw notFound('File not found.');
    const share = await getShareByToken(db, opts.share);
    const included = share?.snapshot.some((m) => m.parts.some((p) => p.type === 'file' && p.id === id));
    const row = included ? await getFile(db, id) : null;
    if (!row || row.userId !== share?.userId) throw notFound('File not found.');
    return row;
  }
  const row = opts.userId ? await getOwnFile(db, opts.userId, id) : null;
  if (!row) throw notFound('File not found.');
  return row;
}

export async function readBlob(row: Pick<FileRow, 'sha256'>): Promise<Buffer> {
  try {
    return await readFile(blobPath(row.sha256));
  } catch {
    throw notFound('File not found.');
  }
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

/** `filename*` (RFC 6266/5987) with an ASCII fallback. */
function disposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/[\\"]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * The file as an HTTP answer: never as HTML (its type is one of the few sniffFile allows, and the browser
 * may not sniff another), images inline for previews, everything else as a download, sandboxed.
 */
export function fileResponse(row: FileRow, bytes: Buffer, req: Request, shared: boolean): Response {
  const etag = `"${row.sha256}"`;
  const kind = kindOf(row.mediaType);
  const headers: Record<string, string> = {
    'content-type': kind === 'text' ? `${row.mediaType}; charset=utf-8` : row.mediaType,
    'content-disposition': disposition(kind === 'image' ? 'inline' : 'attachment', row.name),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': shared ? 'no-store' : 'private, no-cache',
    etag,
  };
  if (!shared && req.headers.get('if-none-match') === etag)
    return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(bytes), {
    headers: { ...headers, 'content-length': String(bytes.length) },
  });
}

/**
 * After a conversation is deleted: its files that no stored message refers to any more are deleted, and
 * a blob no file row keeps any more leaves the disk.
 */
export async function releaseFiles(ids: Iterable<string>): Promise<void> {
  const db = getDb();
  for (const id of new Set(ids)) {
    const row = await deleteFileIfUnused(db, id, fileUrl(id));
    if (!row) continue;
    if (!(await blobInUse(db, row.sha256))) {
      await rm(blobPath(row.sha256), { force: true });
      await rm(textPath(row.sha256), { force: true });
    }
  }
}

/** Blobs no file row keeps any more (e.g. after their owner's account was deleted) leave the disk now. */
export async function removeUnusedBlobs(sha256s: Iterable<string>): Promise<void> {
  const db = getDb();
  for (const sha of new Set(sha256s)) {
    if (await blobInUse(db, sha)) continue;
    await rm(blobPath(sha), { force: true });
    await rm(textPath(sha), { force: true });
  }
}

/** The file ids a message's parts refer to. */
export function fileIdsOf(parts: ReadonlyArray<{ type: string; url?: unknown }>): string[] {
  return parts.flatMap((p) => {
    const id = p.type === 'file' && typeof p.url === 'string' ? fileIdOf(p.url) : null;
    return id ? [id] : [];
  });
}

/** A file part as stored with a user message: the sender's own file, its type and name as we recorded them. */
export async function ownFilePart(userId: string, url: string): Promise<ChatPart> {
  const id = fileIdOf(url);
  const row = id ? await getOwnFile(getDb(), userId, id) : null;
  if (!row) throw attachmentGone();
  return { type: 'file', mediaType: row.mediaType, url: fileUrl(row.id), filename: row.name };
}

/** A message refers to a file that is not (or no longer) the user's: 404, upload it again. */
export const attachmentGone = () =>
  new AppError('not_found', 'Attachment not found. Upload it again.', {
    'message.parts': 'unknown attachment',
  });

const attr = (value: string) => value.replace(/[\r\n"<>]/g, ' ');

/** One attachment as the model gets it: an image (or, without vision, a note), or the file's text. */
async function modelPart(
  row: FileRow | null,
  part: { mediaType: string; filename?: string },
  vision: boolean,
  withheld: string[],
): Promise<ChatPart> {
  const name = row?.name ?? part.filename ?? 'attachment';
  if (!row) return { type: 'text', text: `[Attachment "${attr(name)}": no longer available.]` };
  const kind = kindOf(row.mediaType);
  if (kind === 'image') {
    if (!vision) {
      withheld.push(name);
      return {
        type: 'text',
        text: `[Image "${attr(name)}" attached by the user: this model cannot view images, so it was not sent.]`,
      };
    }
    const data = (await readBlob(row)).toString('base64');
    return {
      type: 'file',
      mediaType: row.mediaType,
      url: `data:${row.mediaType};base64,${data}`,
      filename: name,
    };
  }
  let text: string;
  try {
    text = await readFileText(row);
  } catch {
    return { type: 'text', text: `[Attachment "${attr(name)}": could not be read.]` };
  }
  const body =
    kind === 'pdf' && !text.trim()
      ? '[This PDF has no text layer (a scan?): nothing could be extracted.]'
      : cutText(text).text;
  return {
    type: 'text',
    text: `<attachment name="${attr(name)}" type="${row.mediaType}">\n${body}\n</attachment>`,
  };
}

/**
 * The history as the model gets it: each attachment of the user's messages becomes an image part (a data
 * URL the SDK sends inline) or text (text files, PDFs' extracted text, cut at MAX_EXTRACT_CHARS).
 * Images for a model without vision become a note, and `withheld` names them (shown to the user).
 * Only the owner's files are read; anything else is "no longer available".
 */
export async function attachmentsForModel(
  userId: string,
  history: ChatMessage[],
  vision: boolean,
): Promise<{ history: ChatMessage[]; withheld: string[] }> {
  const withheld: string[] = [];
  const db = getDb();
  const lastUser = history.findLastIndex((m) => m.role === 'user');
  const out = await Promise.all(
    history.map(async (message, i): Promise<ChatMessage> => {
      if (message.role !== 'user' || !message.parts.some((p) => p.type === 'file')) return message;
      // Only the newest message's images are named to the user; older ones were named when they were sent.
      const named = i === lastUser ? withheld : [];
      const parts = await Promise.all(
        message.parts.map(async (p): Promise<ChatPart> => {
          if (p.type !== 'file') return p;
          const id = fileIdOf(p.url);
          const row = id ? await getOwnFile(db, userId, id) : null;
          return modelPart(row, p, vision, named);
        }),
      );
      return { ...message, parts };
    }),
  );
  return { history: out, withheld };
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * At start: blobs no file row keeps any more (their owner's account was deleted, which drops the rows
 * with it) leave the disk. Answers how many went.
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
      if (!SHA256_HEX.test(name) || (await blobInUse(db, name))) continue;
      // A blob written in the last hour may belong to an upload whose row is being written right now.
      const written = await stat(blobPath(name)).catch(() => null);
      if (!written || written.mtimeMs > Date.now() - 60 * 60 * 1000) continue;
      await rm(blobPath(name), { force: true });
      await rm(textPath(name), { force: true });
      removed++;
    }
  }
  return removed;
}

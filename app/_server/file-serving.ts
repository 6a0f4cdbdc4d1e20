import 'server-only';
import { FILE_ID } from '@/app/_server/files';
import { getDb } from '@/db/client';
import { type FileRow, getFile, getOwnFile } from '@/db/queries/files';
import { getShareByToken } from '@/db/queries/shares';
import { notFound } from '@/lib/errors';
import { kindOf } from '@/lib/files/sniff';
import { SHARE_TOKEN } from '@/lib/share/token';

/** Reading a file over HTTP (GET /api/files/[id]): who may, and how it is answered. */

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

/**
 * What an uploaded file is, decided by its bytes (the name and the browser's declared type are not
 * trusted): an image the model can view, a PDF, or UTF-8 text. Anything else is refused, and so is a
 * name that claims an image or PDF the bytes are not; and the name a file is shown by. Isomorphic and pure
 * (unit-tested in sniff.test.ts).
 */

export type FileKind = 'image' | 'pdf' | 'text';
export type Sniffed = { ok: true; kind: FileKind; mediaType: string } | { ok: false; reason: string };

const IMAGE_EXTENSIONS: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** Text types by extension; any other text is text/plain (code, logs, …). */
const TEXT_TYPES: Record<string, string> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
};

/** Extensions whose files are binary whatever they hold: refused unless the bytes are what they say. */
const BINARY_EXTENSIONS = new Set([
  ...Object.keys(IMAGE_EXTENSIONS),
  'pdf',
  'zip',
  'gz',
  'tar',
  '7z',
  'rar',
  'exe',
  'dll',
  'so',
  'bin',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'mp3',
  'mp4',
  'wav',
  'mov',
  'avi',
  'bmp',
  'tif',
  'tiff',
  'ico',
  'heic',
]);

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The image type of the bytes, or null. */
export function imageType(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return null;
}

export const isPdf = (bytes: Uint8Array) => startsWith(bytes, ascii('%PDF-'));

/** UTF-8 text without NUL bytes (a NUL means binary: UTF-16 or a format we do not read). */
export function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

export const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};

/** Longest name kept; a longer one is cut before its extension. */
const MAX_NAME = 200;

/**
 * A name fit to show and to send in Content-Disposition: no path, no control characters, no bidirectional
 * overrides (which make "report<U+202E>gnp.txt" read as "reporttxt.png"), ≤ 200 characters with its extension.
 * The server stores a file under it; the composer's chip shows it before the upload answers.
 */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).at(-1) ?? '';
  const clean = base
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069"]/g, '')
    .trim();
  if (clean.length <= MAX_NAME) return clean || 'file';
  const ext = extensionOf(clean);
  const keep = ext && ext.length < 16 ? `.${ext}` : '';
  return clean.slice(0, MAX_NAME - keep.length) + keep;
}

export function sniffFile(bytes: Uint8Array, name: string): Sniffed {
  if (!bytes.length) return { ok: false, reason: 'The file is empty.' };
  const ext = extensionOf(name);
  const image = imageType(bytes);
  if (image) return { ok: true, kind: 'image', mediaType: image };
  if (isPdf(bytes)) return { ok: true, kind: 'pdf', mediaType: 'application/pdf' };
  if (BINARY_EXTENSIONS.has(ext))
    return {
      ok: false,
      reason:
        IMAGE_EXTENSIONS[ext] || ext === 'pdf'
          ? `The file is named .${ext} but its content is not a ${ext === 'pdf' ? 'PDF' : 'PNG, JPEG, GIF or WebP image'}.`
          : `Files of type .${ext} cannot be attached.`,
    };
  if (isText(bytes)) return { ok: true, kind: 'text', mediaType: TEXT_TYPES[ext] ?? 'text/plain' };
  return {
    ok: false,
    reason: 'Only images (PNG, JPEG, GIF, WebP), PDFs and UTF-8 text files can be attached.',
  };
}

/** The kind of a stored media type (what the model gets of it). */
export function kindOf(mediaType: string): FileKind {
  if (mediaType.startsWith('image/')) return 'image';
  if (mediaType === 'application/pdf') return 'pdf';
  return 'text';
}

/** Most characters of one file's text the model gets (text files and PDFs alike). */
export const MAX_EXTRACT_CHARS = 50_000;

/** The text as the model gets it: cut at `max` characters, with a note saying how much was left out. */
export function cutText(text: string, max = MAX_EXTRACT_CHARS): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  return {
    text: `${text.slice(0, max)}\n\n[… cut: the file has ${text.length} characters; only the first ${max} are included]`,
    cut: true,
  };
}

/** A size for people: 512 B, 3.4 KB, 12 MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const kb = bytes / 1024;
  if (kb < 1024) return `${kb < 10 ? kb.toFixed(1) : Math.round(kb)} KB`;
  const mb = kb / 1024;
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
}

import 'server-only';
import { fileIdOf, fileUrl, readBlob, readFileText } from '@/app/_server/files';
import { getDb } from '@/db/client';
import { type FileRow, getOwnFile } from '@/db/queries/files';
import { AppError } from '@/lib/errors';
import { cutText, kindOf } from '@/lib/files/sniff';
import type { ChatMessage, ChatPart } from '@/lib/schemas/chat';

/** A message's attachments: the files its parts refer to, and what the model gets of them. */

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

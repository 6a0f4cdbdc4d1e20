import 'server-only';
import { generateId } from 'ai';
import { sweepUnsent, writeFileBytes } from '@/app/_server/file-uploads';
import { fileIdOf, fileUrl, keepBlob, readBlob, removeUnusedBlobs } from '@/app/_server/files';
import { ownFilePart } from '@/app/_server/message-attachments';
import type { SessionUser } from '@/app/_server/session';
import { getDb } from '@/db/client';
import { createConversationWithMessages, getOwnConversation } from '@/db/queries/conversations';
import { getOwnFile, type NewFileRow } from '@/db/queries/files';
import { listMessages, listMessageTree, selectedLeaf } from '@/db/queries/messages';
import { rebuildTree } from '@/lib/chat/branches';
import { conversationToMarkdown } from '@/lib/chat/export';
import { AppError, notFound } from '@/lib/errors';
import { cleanFileName } from '@/lib/files/sniff';
import type { ChatPart, ToolState } from '@/lib/schemas/chat';
import type { ConversationImportSchema } from '@/lib/schemas/conversations';
import { parseStoredParts } from '@/lib/schemas/stored-message';
import type * as z from '@/lib/zod';

const fileName = (title: string, ext: string) =>
  `${
    title
      .replace(/[^\w -]+/g, '')
      .trim()
      .slice(0, 60) || 'conversation'
  }.${ext}`;

/**
 * Markdown for reading (the selected path), JSON for re-import: every message of every branch in the
 * order written, with full parts (attachments inlined) and metadata, each with its id and the id of the
 * message it follows, and `selectedId`, the end of the selected path.
 */
export async function exportConversation(
  user: SessionUser,
  id: string,
  format: 'md' | 'json',
): Promise<Response> {
  const db = getDb();
  const c = await getOwnConversation(db, user.id, id);
  if (!c) throw notFound('Conversation not found.');
  const headers = (type: string, ext: string) => ({
    'content-type': type,
    'content-disposition': `attachment; filename="${fileName(c.title, ext)}"`,
    'cache-control': 'no-store',
  });
  if (format === 'md')
    return new Response(conversationToMarkdown(c.title, await listMessages(db, id)), {
      headers: headers('text/markdown; charset=utf-8', 'md'),
    });
  const body = {
    version: 2,
    title: c.title,
    model: c.model,
    createdAt: c.createdAt.toISOString(),
    selectedId: await selectedLeaf(db, id),
    messages: await inlineFiles(user.id, await listMessageTree(db, id)),
  };
  return new Response(JSON.stringify(body, null, 2), { headers: headers('application/json', 'json') });
}

/** A JSON export carries its attachments: each file part's URL becomes a data: URL of the file's bytes. */
async function inlineFiles<M extends { parts: ChatPart[] }>(userId: string, messages: M[]): Promise<M[]> {
  const db = getDb();
  return Promise.all(
    messages.map(async (m) => {
      if (!m.parts.some((p) => p.type === 'file')) return m;
      const parts = await Promise.all(
        m.parts.map(async (p): Promise<ChatPart> => {
          if (p.type !== 'file') return p;
          const id = fileIdOf(p.url);
          const row = id ? await getOwnFile(db, userId, id) : null;
          if (!row) return p;
          const data = (await readBlob(row)).toString('base64');
          return { ...p, url: `data:${row.mediaType};base64,${data}` };
        }),
      );
      return { ...m, parts };
    }),
  );
}

/** An imported attachment: its row, stored with the conversation, and its bytes. */
type NewFile = { row: NewFileRow; bytes: Uint8Array };

const DATA_URL = /^data:[^;,]*;base64,([A-Za-z0-9+/]*={0,2})$/;

/**
 * The attachments of an imported file become files of the importer: a data: URL (what exports carry) is
 * checked like an upload and its bytes written, its row (and bytes) added to `newFiles` (stored with the conversation);
 * the importer's own /api/files URL is kept; anything else (another user's file, a remote URL) becomes a
 * note, never a link.
 */
async function importFiles(userId: string, parts: ChatPart[], newFiles: NewFile[]): Promise<ChatPart[]> {
  return Promise.all(
    parts.map(async (p): Promise<ChatPart> => {
      if (p.type !== 'file') return p;
      const name = cleanFileName(p.filename ?? 'file');
      const base64 = DATA_URL.exec(p.url)?.[1];
      try {
        if (base64 !== undefined) {
          const bytes = Buffer.from(base64, 'base64');
          const file = await writeFileBytes(userId, bytes, name);
          newFiles.push({ row: file, bytes });
          return { type: 'file', mediaType: file.mediaType, url: fileUrl(file.id), filename: file.name };
        }
        return await ownFilePart(userId, p.url);
      } catch (err) {
        const why = err instanceof AppError ? err.message : 'not included';
        return { type: 'text', text: `_(attachment ${name} not imported: ${why})_` };
      }
    }),
  );
}

/** An imported tool call is a record of the past: one still pending (awaiting approval) would offer to run here. */
const FINAL_TOOL_STATES = new Set<ToolState>(['output-available', 'output-error', 'output-denied']);
const keptPart = (p: ChatPart) =>
  p.type === 'text' || p.type === 'file' || (p.type === 'dynamic-tool' && FINAL_TOOL_STATES.has(p.state));

/**
 * A JSON export becomes a new conversation of the importer, its branches kept; its parts are read like
 * stored ones (parseStoredParts), and only text, attachments and finished tool calls are kept. Every
 * message is marked imported by us (the file's own metadata is not trusted), so its tool calls never pass
 * as run here.
 */
export async function importConversation(
  user: SessionUser,
  input: z.infer<typeof ConversationImportSchema>,
): Promise<{ id: string }> {
  const id = generateId();
  // Branches come back as they were (new ids); a file without them is one path.
  const tree = rebuildTree(input.messages, input.selectedId, generateId);
  const newFiles: NewFile[] = [];
  const messages = await Promise.all(
    tree.messages.map(async ({ item: m, id, parentId }) => ({
      id,
      parentId,
      role: m.role,
      // Files only in the user's own messages (where the app puts them).
      parts: await importFiles(
        user.id,
        parseStoredParts(m.parts).filter((p) => keptPart(p) && (p.type !== 'file' || m.role === 'user')),
        newFiles,
      ),
      metadata: { imported: true, ...(m.metadata?.interrupted ? { interrupted: true } : {}) },
    })),
  );
  try {
    await createConversationWithMessages(getDb(), {
      id,
      userId: user.id,
      title: input.title,
      model: null,
      messages,
      leafId: tree.leafId,
      files: newFiles.map((f) => f.row),
    });
  } catch (err) {
    // Nothing of an import that could not be stored stays: its file rows were not written; their bytes go
    // unless another file (another upload of the same content) keeps them.
    await removeUnusedBlobs(newFiles.map((f) => f.row.sha256));
    throw err;
  }
  for (const { row, bytes } of newFiles) await keepBlob(row.sha256, bytes);
  if (newFiles.length) await sweepUnsent(user.id);
  return { id };
}

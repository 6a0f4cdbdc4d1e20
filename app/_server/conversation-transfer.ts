import 'server-only';
import { generateId } from 'ai';
import { getDb } from '@/db/client';
import { createConversationWithMessages, getOwnConversation } from '@/db/queries/conversations';
import { listMessages, listMessageTree, selectedLeaf } from '@/db/queries/messages';
import { rebuildTree } from '@/lib/chat/branches';
import type { SessionUser } from '@/app/_server/session';
import { conversationToMarkdown } from '@/lib/chat/export';
import { notFound } from '@/lib/errors';
import type { ChatPart, ConversationImportSchema, ToolState } from '@/lib/schemas/chat';
import { parseStoredParts } from '@/lib/schemas/stored-message';
import type { z } from 'zod';

const fileName = (title: string, ext: string) =>
  `${
    title
      .replace(/[^\w -]+/g, '')
      .trim()
      .slice(0, 60) || 'conversation'
  }.${ext}`;

/**
 * Markdown for reading (the selected path), JSON for re-import: every message of every branch in the
 * order written, with full parts and metadata, each with its id and the id of the message it follows,
 * and `selectedId`, the end of the selected path.
 */
export function exportConversation(user: SessionUser, id: string, format: 'md' | 'json'): Response {
  const db = getDb();
  const c = getOwnConversation(db, user.id, id);
  if (!c) throw notFound('Conversation not found.');
  const headers = (type: string, ext: string) => ({
    'content-type': type,
    'content-disposition': `attachment; filename="${fileName(c.title, ext)}"`,
    'cache-control': 'no-store',
  });
  if (format === 'md')
    return new Response(conversationToMarkdown(c.title, listMessages(db, id)), {
      headers: headers('text/markdown; charset=utf-8', 'md'),
    });
  const body = {
    version: 2,
    title: c.title,
    model: c.model,
    createdAt: c.createdAt.toISOString(),
    selectedId: selectedLeaf(db, id),
    messages: listMessageTree(db, id),
  };
  return new Response(JSON.stringify(body, null, 2), { headers: headers('application/json', 'json') });
}

/** An imported tool call is a record of the past: one still pending (awaiting approval) would offer to run here. */
const FINAL_TOOL_STATES = new Set<ToolState>(['output-available', 'output-error', 'output-denied']);
const keptPart = (p: ChatPart) =>
  p.type === 'text' || (p.type === 'dynamic-tool' && FINAL_TOOL_STATES.has(p.state));

/**
 * A JSON export becomes a new conversation of the importer, its branches kept; its parts are read like stored ones
 * (parseStoredParts), and only text and finished tool calls are kept. Every message
 * is marked imported by us (the file's own metadata is not trusted), so its tool calls never pass as run here.
 */
export function importConversation(
  user: SessionUser,
  input: z.infer<typeof ConversationImportSchema>,
): { id: string } {
  const id = generateId();
  // Branches come back as they were (new ids); a file without them is one path.
  const tree = rebuildTree(input.messages, input.selectedId, generateId);
  createConversationWithMessages(getDb(), {
    id,
    userId: user.id,
    title: input.title,
    model: null,
    messages: tree.messages.map(({ item: m, id, parentId }) => ({
      id,
      parentId,
      role: m.role,
      parts: parseStoredParts(m.parts).filter(keptPart),
      metadata: { imported: true, ...(m.metadata?.interrupted ? { interrupted: true } : {}) },
    })),
    leafId: tree.leafId,
  });
  return { id };
}

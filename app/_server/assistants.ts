import 'server-only';
import type { Db } from '@/db/client';
import {
  type AssistantRow,
  type AssistantValues,
  deleteAssistant,
  getVisibleAssistant,
  insertAssistant,
  updateAssistant,
} from '@/db/queries/assistants';
import type { ConversationPatch } from '@/db/queries/conversations';
import { modelSources } from '@/app/_server/model-sources';
import type { SessionUser } from '@/app/_server/session';
import type { Principal } from '@/lib/access';
import { AppError, changedSince, notFound } from '@/lib/errors';
import { getPool } from '@/lib/mcp/pool';
import { listModels } from '@/lib/providers';
import type { AssistantCreate, AssistantPatch, AssistantView } from '@/lib/schemas/assistants';

/**
 * Assistants (SPEC §7.4): who sees and changes which, and what one may hold. A user sees their own and
 * the shared ones; another user's personal assistant does not exist for them (404). Only admins share
 * one, and only admins change or delete a shared one. An assistant's model and servers must be ones its
 * author may use, so an assistant never carries a model or server past an allow list; and whoever starts
 * a chat with a shared one still gets only the servers and models they may use themselves.
 */

const NOT_FOUND = 'Assistant not found.';

/** May this user change or delete it? Their own personal one; a shared one if they are an admin. */
export function canEditAssistant(user: Principal, row: AssistantRow): boolean {
  return row.shared ? user.role === 'admin' : row.userId === user.id;
}

/** The servers of this user's view (enabled, on their allow list). */
function usableServers(user: Principal): Set<string> {
  return new Set(
    getPool()
      .usableBy(user)
      .map((c) => c.name),
  );
}

/** The ids of the models this user may use (what presentAssistant takes). */
export async function usableModelIds(user: Principal): Promise<Set<string>> {
  return new Set(listModels(await modelSources(), user).map((m) => m.id));
}

/**
 * As the API shows it; a viewer who cannot edit it sees only the servers and the model they may use
 * themselves (`usableModels`: usableModelIds): to anyone else a limited model does not exist.
 */
export function presentAssistant(
  user: Principal,
  row: AssistantRow,
  usableModels: ReadonlySet<string>,
): AssistantView {
  const editable = canEditAssistant(user, row);
  const usable = editable || !row.servers ? null : usableServers(user);
  return {
    id: row.id,
    name: row.name,
    instructions: row.instructions,
    model: editable || (row.model && usableModels.has(row.model)) ? row.model : null,
    toolMode: row.toolMode,
    servers: usable && row.servers ? row.servers.filter((s) => usable.has(s)) : row.servers,
    temperature: row.temperature,
    shared: row.shared,
    mine: row.userId === user.id,
    editable,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** 400 naming the field when the model or a server is not one the author may use. */
async function assertUsable(user: Principal, values: Partial<AssistantValues>): Promise<void> {
  const fields: Record<string, string> = {};
  if (values.model) {
    const models = listModels(await modelSources(), user);
    if (!models.some((m) => m.id === values.model)) fields.model = 'is not one of the models you may use';
  }
  if (values.servers?.length) {
    const usable = usableServers(user);
    const unknown = values.servers.filter((s) => !usable.has(s));
    if (unknown.length) fields.servers = `not available to you: ${unknown.join(', ')}`;
  }
  if (values.shared && user.role !== 'admin') {
    throw new AppError('forbidden', 'Only admins can share an assistant with everyone.', {
      shared: 'admins only',
    });
  }
  const first = Object.entries(fields)[0];
  if (first) throw new AppError('bad_request', `Invalid request body: ${first[0]}: ${first[1]}`, fields);
}

function values(input: AssistantCreate | AssistantPatch): Partial<AssistantValues> {
  const out: Partial<AssistantValues> = {};
  if (input.name !== undefined) out.name = input.name;
  if (input.instructions !== undefined) out.instructions = input.instructions;
  if (input.model !== undefined) out.model = input.model;
  if (input.toolMode !== undefined) out.toolMode = input.toolMode;
  if (input.servers !== undefined) out.servers = input.servers ? [...new Set(input.servers)] : null;
  if (input.temperature !== undefined) out.temperature = input.temperature;
  if (input.shared !== undefined) out.shared = input.shared;
  return out;
}

export async function createAssistant(
  db: Db,
  user: SessionUser,
  input: AssistantCreate,
): Promise<AssistantRow> {
  const v = values(input);
  await assertUsable(user, v);
  return insertAssistant(db, user.id, {
    name: input.name,
    instructions: input.instructions,
    model: v.model ?? null,
    toolMode: v.toolMode ?? null,
    servers: v.servers ?? null,
    temperature: v.temperature ?? null,
    shared: v.shared ?? false,
  });
}

/** The assistant if this user may change it: 404 if they cannot see it, 403 if it is shared and they are no admin. */
async function editableAssistant(db: Db, user: SessionUser, id: string): Promise<AssistantRow> {
  const row = await getVisibleAssistant(db, user.id, id);
  if (!row) throw notFound(NOT_FOUND);
  if (!canEditAssistant(user, row))
    throw new AppError('forbidden', 'Only admins can change or delete a shared assistant.');
  return row;
}

/**
 * PATCH: the fields given. `ifMatch` (the edit form's If-Match: the updatedAt it was opened at) makes it
 * a 409 when the assistant was written since (another tab, another admin), so a stale form cannot put
 * old values back; nothing is written then.
 */
export async function changeAssistant(
  db: Db,
  user: SessionUser,
  id: string,
  patch: AssistantPatch,
  ifMatch: Date | null = null,
): Promise<AssistantRow> {
  const stored = await editableAssistant(db, user, id);
  if (ifMatch && ifMatch.getTime() !== stored.updatedAt.getTime()) throw changedSince('assistant');
  const v = values(patch);
  // Only what changes is checked: an admin may edit a shared assistant's instructions without holding its model.
  await assertUsable(user, v);
  const row = await updateAssistant(db, id, v, stored.updatedAt, { ifUnchanged: ifMatch !== null });
  if (row) return row;
  throw ifMatch && (await getVisibleAssistant(db, user.id, id))
    ? changedSince('assistant')
    : notFound(NOT_FOUND);
}

export async function removeAssistant(db: Db, user: SessionUser, id: string): Promise<void> {
  await editableAssistant(db, user, id);
  await deleteAssistant(db, id);
}

/**
 * The assistant a new chat starts with: a 404 naming `assistantId` when the user cannot see it (another
 * user's, or deleted or un-shared since the page opened), so the chat offers a new chat, not a Retry.
 */
export async function assistantForChat(db: Db, userId: string, id: string): Promise<AssistantRow> {
  const row = await getVisibleAssistant(db, userId, id);
  if (!row)
    throw new AppError(
      'not_found',
      'This assistant is no longer available: it was deleted or is no longer shared.',
      { assistantId: 'is no longer available' },
    );
  return row;
}

/**
 * What a new conversation of `user` takes from its assistant (the request's own tool settings override
 * these): of its servers only those the user may use, as presentAssistant shows them (a shared
 * assistant may name servers limited to others, which do not exist for this user).
 */
export function assistantSeed(user: Principal, row: AssistantRow): ConversationPatch {
  const usable = row.servers ? usableServers(user) : null;
  return {
    assistantId: row.id,
    instructions: row.instructions || null,
    temperature: row.temperature,
    ...(row.toolMode ? { toolMode: row.toolMode } : {}),
    ...(row.servers && usable ? { toolServers: row.servers.filter((s) => usable.has(s)) } : {}),
  };
}

import 'server-only';
import { isTurnRunning } from '@/app/_server/running-turns';
import { getDb } from '@/db/client';
import {
  type ConversationPatch,
  type ConversationRow,
  changeConversation,
  updateConversation,
} from '@/db/queries/conversations';
import { cachedSettings } from '@/app/_server/hot-cache';
import type { Principal } from '@/lib/access';
import { assertWithinCeilings, type LimitCeilings } from '@/lib/chat/limits';
import { AppError, notFound } from '@/lib/errors';
import { getPool } from '@/lib/mcp/pool';
import type { ToolSettings, ToolToggle } from '@/lib/schemas/chat';
import type { ConversationPatchBody } from '@/lib/schemas/conversations';
import { applyToggles } from '@/lib/tool-toggles';

/** The most servers and switched-off tools a conversation keeps (the bounds of the lists a PATCH may send). */
const MAX_SERVERS = 100;
const MAX_DISABLED_TOOLS = 1000;

/**
 * PATCH /api/conversations/[id]: a rename, instructions and tool settings. `toggles` are applied to the
 * stored servers and tools inside one transaction (changeConversation), so a tab switching one tool
 * keeps what another tab switched meanwhile; the answer is the conversation as stored after it.
 */
export async function patchConversation(user: Principal, id: string, body: ConversationPatchBody) {
  const { title, instructions, toggles, ...tools } = body;
  const patch: ConversationPatch = {
    // A rename is the user's: a generated title never replaces it.
    ...(title ? { title, titleSource: 'user' as const } : {}),
    ...(instructions !== undefined ? { instructions: instructions?.trim() ? instructions : null } : {}),
    ...(await toolSettingsPatch(tools)),
  };
  const db = getDb();
  const row = toggles
    ? await changeConversation(db, user.id, id, (stored) => ({ ...patch, ...toggled(user, stored, toggles) }))
    : await updateConversation(db, user.id, id, patch);
  if (!row) throw notFound('Conversation not found.');
  return presentConversation(row);
}

/** The stored servers and switched-off tools with the toggles applied (a 400 past the lists' bounds). */
function toggled(user: Principal, stored: ConversationRow, toggles: ToolToggle[]): ConversationPatch {
  const all = getPool()
    .forUser(user)
    .servers()
    .map((c) => c.name);
  const next = applyToggles(
    { servers: stored.toolServers, disabledTools: stored.disabledTools },
    toggles,
    all,
  );
  if ((next.servers?.length ?? 0) > MAX_SERVERS || next.disabledTools.length > MAX_DISABLED_TOOLS)
    throw new AppError('bad_request', 'Too many servers or tools switched off in this conversation.', {
      toggles: `at most ${MAX_SERVERS} servers and ${MAX_DISABLED_TOOLS} switched-off tools`,
    });
  return { toolServers: next.servers, disabledTools: next.disabledTools };
}

/**
 * API tool settings → DB columns (only the fields given). Step and tool-call limits above the admin's
 * current ones are refused (400): every way a user sets them (PATCH, a new chat's first message) comes here.
 */
export async function toolSettingsPatch(
  s: ToolSettings,
  ceilings?: LimitCeilings,
): Promise<ConversationPatch> {
  ceilings ??= await cachedSettings();
  assertWithinCeilings(s, ceilings);
  return {
    ...(s.toolMode !== undefined ? { toolMode: s.toolMode } : {}),
    ...(s.servers !== undefined ? { toolServers: s.servers } : {}),
    ...(s.disabledTools !== undefined ? { disabledTools: s.disabledTools } : {}),
    ...(s.maxSteps !== undefined ? { maxSteps: s.maxSteps } : {}),
    ...(s.maxToolCalls !== undefined ? { maxToolCalls: s.maxToolCalls } : {}),
  };
}

/** A conversation as the API shows it. */
export async function presentConversation(c: ConversationRow) {
  return {
    id: c.id,
    title: c.title,
    model: c.model,
    toolMode: c.toolMode,
    servers: c.toolServers,
    disabledTools: c.disabledTools,
    maxSteps: c.maxSteps,
    maxToolCalls: c.maxToolCalls,
    assistantId: c.assistantId,
    instructions: c.instructions,
    temperature: c.temperature,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    running: await isTurnRunning(c.id),
  };
}

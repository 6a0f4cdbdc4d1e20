import 'server-only';
import { isTurnRunning } from '@/app/_server/running-turns';
import type { ConversationPatch, ConversationRow } from '@/db/queries/conversations';
import { cachedSettings } from '@/app/_server/hot-cache';
import { assertWithinCeilings, type LimitCeilings } from '@/lib/chat/limits';
import type { ToolSettings } from '@/lib/schemas/chat';

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

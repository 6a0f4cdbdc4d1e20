import type { Approval } from '@/lib/schemas/chat-post';
import type { ChatMessage, ChatPart } from '@/lib/schemas/chat';
import { toolMetadataOf } from '@/lib/schemas/tool-metadata';
import { AppError } from '@/lib/errors';

/**
 * Applies a person's answers to the pending approvals of the stored answer. Only ids the server
 * itself asked about count; the client's copy of the message is never trusted. An approval is answered
 * once: an answer to a call that is no longer awaiting approval (answered before, from another tab or
 * a replayed request) is a 409 and changes nothing, so a tool never runs twice for one approval.
 */
export function applyApprovals(
  parts: ChatPart[],
  approvals: Approval[],
): { parts: ChatPart[]; alwaysAllow: string[] } {
  const byId = new Map(approvals.map((a) => [a.id, a]));
  const seen = new Set<string>();
  const alwaysAllow: string[] = [];
  const next = parts.map((part): ChatPart => {
    if (part.type !== 'dynamic-tool' || !part.approval) return part;
    const answer = byId.get(part.approval.id);
    if (!answer) return part;
    seen.add(answer.id);
    if (part.state !== 'approval-requested') {
      throw new AppError('conflict', 'This tool call was already answered.', { approvals: answer.id });
    }
    const meta = toolMetadataOf(part);
    if (answer.approved && answer.always && meta.server !== undefined && meta.tool !== undefined) {
      alwaysAllow.push(`${meta.server}/${meta.tool}`);
    }
    return {
      ...part,
      state: 'approval-responded',
      approval: { ...part.approval, approved: answer.approved, reason: answer.reason },
    };
  });
  const unknown = approvals.filter((a) => !seen.has(a.id));
  if (unknown.length) {
    throw new AppError('bad_request', 'No pending tool call has that approval id.', {
      approvals: unknown.map((a) => a.id).join(', '),
    });
  }
  return { parts: next, alwaysAllow };
}

/**
 * Refuses answers to calls of `history` that no longer await approval: answered (in another tab, say),
 * or skipped when a message was sent after them. The same 409 as applyApprovals, checked before the turn
 * starts (also while another turn runs there, so the answer is not told "an answer is still being written").
 */
export function refuseAnswered(history: ChatMessage[], approvals: Approval[]): void {
  const ids = new Set(approvals.map((a) => a.id));
  for (const message of history)
    for (const part of message.parts)
      if (
        part.type === 'dynamic-tool' &&
        part.approval &&
        ids.has(part.approval.id) &&
        part.state !== 'approval-requested'
      )
        throw new AppError('conflict', 'This tool call was already answered.', {
          approvals: part.approval.id,
        });
}

/** Why a call still awaiting approval was not run when the user sent a new message instead. */
export const SKIPPED_APPROVAL = 'Skipped: you sent a new message.';

/** Whether an answer still has tool calls waiting for a person's approval. */
export function hasPendingApprovals(parts: ChatPart[]): boolean {
  return parts.some((p) => p.type === 'dynamic-tool' && p.state === 'approval-requested');
}

/** A tool call's own fields (id, tool, input, title, metadata), to end it in another state. */
function callOf(part: Extract<ChatPart, { type: 'dynamic-tool' }>) {
  const { toolCallId, toolName, input, title, toolMetadata } = part;
  return {
    type: 'dynamic-tool' as const,
    toolCallId,
    toolName,
    input,
    ...(title ? { title } : {}),
    ...(toolMetadata ? { toolMetadata } : {}),
  };
}

/** Resolves every pending approval as denied with `reason` (the calls never run). */
export function skipApprovals(parts: ChatPart[], reason: string): ChatPart[] {
  return parts.map((part): ChatPart => {
    if (part.type !== 'dynamic-tool' || part.state !== 'approval-requested') return part;
    return {
      ...callOf(part),
      state: 'output-denied',
      approval: { ...part.approval, approved: false, reason },
    };
  });
}

/**
 * Approved calls whose tool this turn no longer offers (its server was deleted or switched off, or the tool
 * turned off, while the call awaited approval) end as a tool error instead of running, so the answer goes on.
 */
export function failUnavailableApprovals(
  parts: ChatPart[],
  offered: (toolName: string) => boolean,
): { parts: ChatPart[]; failed: Array<{ toolCallId: string; errorText: string }> } {
  const failed: Array<{ toolCallId: string; errorText: string }> = [];
  const next = parts.map((part): ChatPart => {
    if (part.type !== 'dynamic-tool' || part.state !== 'approval-responded') return part;
    if (!part.approval.approved || offered(part.toolName)) return part;
    const { server, tool } = toolMetadataOf(part);
    const name = server && tool ? `${server}.${tool}` : part.toolName;
    const errorText = `Could not run ${name}: it is no longer available (its server was removed or switched off, or the tool was turned off).`;
    failed.push({ toolCallId: part.toolCallId, errorText });
    return {
      ...callOf(part),
      state: 'output-error',
      errorText,
      approval: { ...part.approval, approved: true },
    };
  });
  return { parts: next, failed };
}

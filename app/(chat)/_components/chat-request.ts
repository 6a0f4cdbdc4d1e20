import type { ChatMessage, ToolSettings } from '@/lib/schemas/chat';

/** The request body: the new user message, or the answers to pending tool approvals. */
export function requestBody(
  id: string,
  messages: ChatMessage[],
  always: ReadonlySet<string>,
  tools: ToolSettings | null,
  /** The conversation was seen stored: a message to it is refused (404) if it was deleted meanwhile. */
  existing = false,
) {
  const last = messages.at(-1);
  // A new chat's first message carries the tool settings chosen before it (later changes are PATCHed).
  // The message follows the one shown before it (an edit: the edited message's parent, so the edit
  // becomes a version beside it).
  if (last?.role !== 'assistant')
    return {
      id,
      message: last,
      parentId: messages.at(-2)?.id ?? null,
      ...(tools && Object.keys(tools).length ? { tools } : {}),
      ...(existing ? { existing: true } : {}),
    };
  const approvals = last.parts.flatMap((part) => {
    if (part.type !== 'dynamic-tool' || part.state !== 'approval-responded' || !part.approval) return [];
    const { id: approvalId, approved, reason } = part.approval;
    return [
      {
        id: approvalId,
        approved: approved === true,
        ...(reason ? { reason } : {}),
        ...(always.has(approvalId) ? { always: true } : {}),
      },
    ];
  });
  return { id, approvals };
}

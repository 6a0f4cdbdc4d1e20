import type { UIMessageChunk } from 'ai';
import type { ChatMessage } from '@/lib/schemas/chat';

type Part = ChatMessage['parts'][number];
type ToolPart = Extract<Part, { type: 'dynamic-tool' }>;

/** The chunks that build one stored tool call again, up to the state it was stored in. */
function toolChunks(part: ToolPart): UIMessageChunk[] {
  const id = part.toolCallId;
  const chunks: UIMessageChunk[] = [
    {
      type: 'tool-input-available',
      toolCallId: id,
      toolName: part.toolName,
      input: part.input,
      dynamic: true,
      ...(part.title ? { title: part.title } : {}),
      ...(part.toolMetadata ? { toolMetadata: part.toolMetadata } : {}),
    } as UIMessageChunk,
  ];
  const approval = part.approval;
  if (approval) {
    chunks.push({
      type: 'tool-approval-request',
      approvalId: approval.id,
      toolCallId: id,
      ...('signature' in approval && approval.signature ? { signature: approval.signature } : {}),
    } as UIMessageChunk);
    if (approval.approved !== undefined) {
      chunks.push({
        type: 'tool-approval-response',
        approvalId: approval.id,
        approved: approval.approved,
        ...(approval.reason ? { reason: approval.reason } : {}),
      } as UIMessageChunk);
    }
  }
  if (part.state === 'output-available') {
    chunks.push({
      type: 'tool-output-available',
      toolCallId: id,
      output: part.output,
      dynamic: true,
    } as UIMessageChunk);
  } else if (part.state === 'output-error') {
    chunks.push({
      type: 'tool-output-error',
      toolCallId: id,
      errorText: part.errorText,
      dynamic: true,
    } as UIMessageChunk);
  } else if (part.state === 'output-denied') {
    chunks.push({ type: 'tool-output-denied', toolCallId: id } as UIMessageChunk);
  }
  return chunks;
}

/**
 * The chunks that rebuild a stored answer, for a turn that continues it (after tool approvals): a
 * client that replays the turn from its start (a reload, another tab) first gets the answer as it was
 * stored, then the continuation, exactly as the tab that answered the approvals saw it.
 */
export function replayPreamble(message: ChatMessage): UIMessageChunk[] {
  const chunks: UIMessageChunk[] = [
    {
      type: 'start',
      messageId: message.id,
      ...(message.metadata ? { messageMetadata: message.metadata } : {}),
    },
  ];
  let inStep = false;
  message.parts.forEach((part, i) => {
    if (part.type === 'step-start') {
      if (inStep) chunks.push({ type: 'finish-step' });
      chunks.push({ type: 'start-step' });
      inStep = true;
    }
    if (part.type === 'text' || part.type === 'reasoning') {
      const id = `stored-${i}`;
      const kind = part.type;
      chunks.push({ type: `${kind}-start`, id } as UIMessageChunk);
      chunks.push({ type: `${kind}-delta`, id, delta: part.text } as UIMessageChunk);
      chunks.push({ type: `${kind}-end`, id } as UIMessageChunk);
    } else if (part.type === 'dynamic-tool') chunks.push(...toolChunks(part));
    else if (part.type.startsWith('data-')) {
      const data = part as { type: `data-${string}`; id?: string; data: unknown };
      chunks.push({
        type: data.type,
        ...(data.id ? { id: data.id } : {}),
        data: data.data,
      } as UIMessageChunk);
    }
  });
  if (inStep) chunks.push({ type: 'finish-step' });
  return chunks;
}

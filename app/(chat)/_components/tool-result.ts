import type { ToolPart } from '@/lib/schemas/chat';

/** Client-side reading of an MCP CallToolResult (untrusted: every field is checked). */
export type ResultBlock = { kind: 'text'; text: string } | { kind: 'image'; src: string; alt: string };

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export function resultBlocks(output: unknown): ResultBlock[] {
  const content = (output as { content?: unknown })?.content;
  if (!Array.isArray(content))
    return [{ kind: 'text', text: typeof output === 'string' ? output : JSON.stringify(output, null, 2) }];
  const blocks: ResultBlock[] = [];
  for (const item of content as Array<Record<string, unknown>>) {
    if (item?.type === 'text' && typeof item.text === 'string')
      blocks.push({ kind: 'text', text: item.text });
    else if (
      item?.type === 'image' &&
      typeof item.data === 'string' &&
      IMAGE_TYPES.has(String(item.mimeType))
    ) {
      blocks.push({
        kind: 'image',
        src: `data:${item.mimeType};base64,${item.data.replace(/[^A-Za-z0-9+/=]/g, '')}`,
        alt: 'tool image',
      });
    } else blocks.push({ kind: 'text', text: JSON.stringify(item, null, 2) });
  }
  return blocks;
}

export type CardState =
  | 'streaming-input'
  | 'awaiting-approval'
  | 'running'
  | 'done'
  | 'error'
  | 'denied'
  | 'cancelled';

/** SPEC §5 card states from the AI SDK part state; a call cut short by Stop is "cancelled". */
export function cardState(part: ToolPart, interrupted: boolean): CardState {
  switch (part.state) {
    case 'input-streaming':
      return interrupted ? 'cancelled' : 'streaming-input';
    case 'approval-requested':
      return 'awaiting-approval';
    case 'approval-responded':
      if (part.approval?.approved === false) return 'denied';
      return interrupted ? 'cancelled' : 'running';
    case 'output-available':
      return 'done';
    case 'output-error':
      return /cancelled by the user/i.test(part.errorText ?? '') ? 'cancelled' : 'error';
    case 'output-denied':
      return 'denied';
    default:
      return interrupted ? 'cancelled' : 'running';
  }
}

export const STATE_LABEL: Record<CardState, string> = {
  'streaming-input': 'Preparing…',
  'awaiting-approval': 'Waiting for approval',
  running: 'Running',
  done: 'Done',
  error: 'Failed',
  denied: 'Denied',
  cancelled: 'Cancelled',
};

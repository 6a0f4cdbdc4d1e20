/**
 * What a share link may show: an allowlist, not a denylist. Message text, and tool calls as
 * "Used server.tool" — with arguments and results only when the owner ticked "Include tool details".
 * Never ids, metadata (model, usage, errors), system prompts, reasoning or custom data parts; the user's
 * attachments only when the owner ticked "Include attachments" (then readable through the share's token);
 * only the imported flag, so an imported message (and its tool calls) never passes as having happened here,
 * and the interrupted flag, so an answer cut short never passes as complete.
 */
import type { ChatMessage, ChatPart, ToolPart } from '@/lib/schemas/chat';
import type { PublicMessage, PublicPart, PublicToolPart } from '@/lib/schemas/share';
import { forUser } from '@/lib/schemas/tool-content';
import { toolMetadataOf } from '@/lib/schemas/tool-metadata';

const MAX_DETAIL_CHARS = 20_000;

function outputText(output: unknown): string {
  const content = (output as { content?: unknown })?.content;
  const text = Array.isArray(content)
    ? content
        .filter(forUser) // `audience: ["assistant"]` is for the model only
        .map((c: { type?: unknown; text?: unknown }) =>
          c?.type === 'text' && typeof c.text === 'string' ? c.text : `[${String(c?.type)}]`,
        )
        .join('\n')
    : JSON.stringify(output ?? null);
  return text.length > MAX_DETAIL_CHARS ? `${text.slice(0, MAX_DETAIL_CHARS)}…` : text;
}

function toolState(part: ToolPart): PublicToolPart['state'] {
  if (part.state === 'output-available') return 'done';
  if (
    part.state === 'output-denied' ||
    (part.state === 'approval-responded' && part.approval.approved === false)
  )
    return 'denied';
  if (part.state === 'output-error') return 'error';
  return 'cancelled';
}

type ShareOptions = { includeToolDetails: boolean; includeFiles?: boolean };

/** `/api/files/<id>` → the id (the public part names the file; the page builds a URL with the share's token). */
const FILE_ID_IN_URL = /^\/api\/files\/([A-Za-z0-9_-]{16,64})$/;

function publicPart(part: ChatPart, opts: ShareOptions): PublicPart | null {
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.type === 'file') {
    const id = FILE_ID_IN_URL.exec(part.url)?.[1];
    return opts.includeFiles && id
      ? { type: 'file', id, name: part.filename ?? 'file', mediaType: part.mediaType }
      : null;
  }
  const includeToolDetails = opts.includeToolDetails;
  if (part.type !== 'dynamic-tool') return null;
  const meta = toolMetadataOf(part);
  const tool: PublicToolPart = {
    type: 'tool',
    server: meta.server ?? 'tool',
    tool: meta.tool ?? 'call',
    state: toolState(part),
  };
  if (!includeToolDetails) return tool;
  return {
    ...tool,
    input: part.input,
    ...(part.state === 'output-available' ? { output: outputText(part.output) } : {}),
    ...(part.state === 'output-error' ? { error: part.errorText.slice(0, MAX_DETAIL_CHARS) } : {}),
  };
}

export function serializeForShare(
  messages: Array<Pick<ChatMessage, 'role' | 'parts' | 'metadata'>>,
  opts: ShareOptions,
): PublicMessage[] {
  const out: PublicMessage[] = [];
  for (const m of messages) {
    if (m.role !== 'user' && m.role !== 'assistant') continue;
    const parts = m.parts.map((p) => publicPart(p, opts)).filter((p): p is PublicPart => p !== null);
    if (parts.length)
      out.push({
        role: m.role,
        parts,
        ...(m.metadata?.imported === true ? { imported: true as const } : {}),
        ...(m.metadata?.interrupted === true ? { interrupted: true as const } : {}),
      });
  }
  return out;
}

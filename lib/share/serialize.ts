/**
 * What a share link may show: an allowlist, not a denylist. Message text, and tool calls as
 * "Used server.tool" — with arguments and results only when the owner ticked "Include tool details".
 * Never ids, metadata (model, usage, errors), system prompts, files, reasoning or custom data parts;
 * only the imported flag, so an imported message (and its tool calls) never passes as having happened here.
 */
export type PublicToolPart = {
  type: 'tool';
  server: string;
  tool: string;
  state: 'done' | 'error' | 'denied' | 'cancelled';
  input?: unknown;
  output?: string;
  error?: string;
};
export type PublicPart = { type: 'text'; text: string } | PublicToolPart;
export type PublicMessage = { role: 'user' | 'assistant'; parts: PublicPart[]; imported?: true };

type StoredPart = {
  type?: unknown;
  text?: unknown;
  state?: unknown;
  toolMetadata?: unknown;
  input?: unknown;
  output?: unknown;
  errorText?: unknown;
};

const MAX_DETAIL_CHARS = 20_000;

function outputText(output: unknown): string {
  const content = (output as { content?: unknown })?.content;
  const text = Array.isArray(content)
    ? content
        .map((c: { type?: unknown; text?: unknown }) =>
          c?.type === 'text' && typeof c.text === 'string' ? c.text : `[${String(c?.type)}]`,
        )
        .join('\n')
    : JSON.stringify(output ?? null);
  return text.length > MAX_DETAIL_CHARS ? `${text.slice(0, MAX_DETAIL_CHARS)}…` : text;
}

function toolState(part: StoredPart): PublicToolPart['state'] {
  if (part.state === 'output-available') return 'done';
  if (
    part.state === 'output-denied' ||
    (part.state === 'approval-responded' &&
      (part as { approval?: { approved?: boolean } }).approval?.approved === false)
  )
    return 'denied';
  if (part.state === 'output-error') return 'error';
  return 'cancelled';
}

function publicPart(part: StoredPart, includeToolDetails: boolean): PublicPart | null {
  if (part.type === 'text' && typeof part.text === 'string') return { type: 'text', text: part.text };
  if (part.type !== 'dynamic-tool') return null;
  const meta = (part.toolMetadata ?? {}) as { server?: unknown; tool?: unknown };
  const tool: PublicToolPart = {
    type: 'tool',
    server: typeof meta.server === 'string' ? meta.server : 'tool',
    tool: typeof meta.tool === 'string' ? meta.tool : 'call',
    state: toolState(part),
  };
  if (!includeToolDetails) return tool;
  return {
    ...tool,
    input: part.input,
    ...(part.state === 'output-available' ? { output: outputText(part.output) } : {}),
    ...(typeof part.errorText === 'string' ? { error: part.errorText.slice(0, MAX_DETAIL_CHARS) } : {}),
  };
}

export function serializeForShare(
  messages: Array<{ role: string; parts: unknown[]; metadata?: Record<string, unknown> }>,
  opts: { includeToolDetails: boolean },
): PublicMessage[] {
  const out: PublicMessage[] = [];
  for (const m of messages) {
    if (m.role !== 'user' && m.role !== 'assistant') continue;
    const parts = m.parts
      .map((p) => publicPart((p ?? {}) as StoredPart, opts.includeToolDetails))
      .filter((p): p is PublicPart => p !== null);
    if (parts.length)
      out.push({
        role: m.role,
        parts,
        ...(m.metadata?.imported === true ? { imported: true as const } : {}),
      });
  }
  return out;
}

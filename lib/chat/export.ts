/** A conversation as a readable Markdown document: roles, times, text, tool calls as fenced blocks. */
type Part = {
  type: string;
  text?: string;
  state?: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  toolMetadata?: { server?: unknown; tool?: unknown };
};
type ExportMessage = {
  role: string;
  parts: unknown[];
  metadata?: Record<string, unknown>;
  createdAt?: string;
};

const fence = (text: string, lang = '') => {
  const ticks = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}${lang}\n${text}\n${ticks}`;
};

/** The visible note on a message that came from an imported file. */
export const IMPORTED_NOTE = '_(imported — not from this server; its tool calls were not run here)_';

function toolBlock(p: Part, imported: boolean): string {
  const server = typeof p.toolMetadata?.server === 'string' ? p.toolMetadata.server : '?';
  const tool = typeof p.toolMetadata?.tool === 'string' ? p.toolMetadata.tool : '?';
  const state = `${p.state ?? 'unknown'}${imported ? ' (imported — not run here)' : ''}`;
  const lines = [
    `**Tool call** \`${server}.${tool}\` — ${state}`,
    '',
    fence(JSON.stringify(p.input ?? {}, null, 2), 'json'),
  ];
  if (p.output !== undefined) lines.push('', 'Result:', '', fence(JSON.stringify(p.output, null, 2), 'json'));
  if (p.errorText) lines.push('', 'Error:', '', fence(p.errorText));
  return lines.join('\n');
}

export function conversationToMarkdown(title: string, messages: ExportMessage[]): string {
  const out = [`# ${title.replace(/\n/g, ' ')}`, ''];
  for (const m of messages) {
    const when = m.createdAt ? ` · ${m.createdAt}` : '';
    const imported = m.metadata?.imported === true;
    out.push(`## ${m.role === 'user' ? 'User' : 'Assistant'}${when}`, '');
    if (imported) out.push(IMPORTED_NOTE, '');
    for (const raw of m.parts) {
      const p = raw as Part;
      if (p.type === 'text' && p.text) out.push(p.text, '');
      else if (p.type === 'dynamic-tool') out.push(toolBlock(p, imported), '');
    }
    if (m.metadata?.interrupted) out.push('_(interrupted)_', '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

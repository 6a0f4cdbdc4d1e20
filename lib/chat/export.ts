import type { ChatMessage, ToolPart } from '@/lib/schemas/chat';
import { toolMetadataOf } from '@/lib/schemas/tool-metadata';

const fence = (text: string, lang = '') => {
  const ticks = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}${lang}\n${text}\n${ticks}`;
};

/** The visible note on a message that came from an imported file. */
export const IMPORTED_NOTE = '_(imported — not from this server; its tool calls were not run here)_';

function toolBlock(p: ToolPart, imported: boolean): string {
  const { server = '?', tool = '?' } = toolMetadataOf(p);
  const state = `${p.state}${imported ? ' (imported — not run here)' : ''}`;
  const lines = [
    `**Tool call** \`${server}.${tool}\` — ${state}`,
    '',
    fence(JSON.stringify(p.input ?? {}, null, 2), 'json'),
  ];
  if (p.output !== undefined) lines.push('', 'Result:', '', fence(JSON.stringify(p.output, null, 2), 'json'));
  if (p.errorText) lines.push('', 'Error:', '', fence(p.errorText));
  return lines.join('\n');
}

/** A conversation as a readable Markdown document: roles, text, tool calls as fenced blocks. */
export function conversationToMarkdown(
  title: string,
  messages: Array<Pick<ChatMessage, 'role' | 'parts' | 'metadata'>>,
): string {
  const out = [`# ${title.replace(/\n/g, ' ')}`, ''];
  for (const m of messages) {
    const imported = m.metadata?.imported === true;
    out.push(`## ${m.role === 'user' ? 'User' : 'Assistant'}`, '');
    if (imported) out.push(IMPORTED_NOTE, '');
    for (const p of m.parts) {
      if (p.type === 'text' && p.text) out.push(p.text, '');
      else if (p.type === 'dynamic-tool') out.push(toolBlock(p, imported), '');
      else if (p.type === 'file')
        out.push(`_(attached: ${(p.filename ?? 'file').replace(/[_*`[\]\n]/g, ' ')})_`, '');
    }
    if (m.metadata?.interrupted) out.push('_(interrupted)_', '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

import type { ChatMessage, ToolPart } from '@/lib/schemas/chat';
import { toolMetadataOf } from '@/lib/schemas/tool-metadata';

const fence = (text: string, lang = '') => {
  const ticks = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}${lang}\n${text}\n${ticks}`;
};

/** The visible note on a message that came from an imported file. */
export const IMPORTED_NOTE = '_(imported — not from this server; its tool calls were not run here)_';
export const INTERRUPTED_NOTE = '_(interrupted)_';
/** A code fence line (CommonMark: up to 3 spaces, then 3 or more backticks or tildes). */
export const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** A line of ours that the Markdown import reads as structure, once any escaping backslashes are set aside. */
export const isMarkerLine = (line: string) =>
  ['## User', '## Assistant', INTERRUPTED_NOTE, IMPORTED_NOTE].includes(line.trim().replace(/^\\+/, ''));

/**
 * A message's text as the Markdown import reads it back: outside code fences, a line that would pass as
 * one of our headings or notes gets a backslash (Markdown shows it as text; the import takes it off), and
 * a code fence left open (an answer stopped mid-block) is closed, so it does not swallow what follows.
 */
function textBlock(text: string): string {
  let open: string | null = null;
  const lines = text.split('\n').map((line) => {
    const marker = FENCE.exec(line)?.[1];
    if (open) {
      if (marker && marker[0] === open[0] && marker.length >= open.length && line.trim() === marker)
        open = null;
    } else if (marker) open = marker;
    else if (isMarkerLine(line)) return line.replace(/^(\s*)/, '$1\\');
    return line;
  });
  return open ? `${lines.join('\n')}\n${open}` : lines.join('\n');
}

/**
 * A name written inside one line of the export (the title heading, a tool call's line): line breaks of any
 * kind (the import reads `\r` as one) become spaces, so a name (a title, an imported file's tool names)
 * cannot end its line and add a `## User` section the import would read as a message.
 */
const oneLine = (name: string) => name.replace(/[\r\n\u2028\u2029\u0085]/g, ' ');
/** A name inside a code span: on one line, and no backtick to end the span early. */
const codeName = (name: string) => oneLine(name).replaceAll('`', "'");

function toolBlock(p: ToolPart, imported: boolean): string {
  const { server = '?', tool = '?' } = toolMetadataOf(p);
  const state = `${p.state}${imported ? ' (imported — not run here)' : ''}`;
  const lines = [
    `**Tool call** \`${codeName(server)}.${codeName(tool)}\` — ${state}`,
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
  const out = [`# ${oneLine(title)}`, ''];
  for (const m of messages) {
    const imported = m.metadata?.imported === true;
    out.push(`## ${m.role === 'user' ? 'User' : 'Assistant'}`, '');
    if (imported) out.push(IMPORTED_NOTE, '');
    for (const p of m.parts) {
      if (p.type === 'text' && p.text) out.push(textBlock(p.text), '');
      else if (p.type === 'dynamic-tool') out.push(toolBlock(p, imported), '');
      else if (p.type === 'file')
        out.push(`_(attached: ${(p.filename ?? 'file').replace(/[_*`[\]\n]/g, ' ')})_`, '');
    }
    if (m.metadata?.interrupted) out.push(INTERRUPTED_NOTE, '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

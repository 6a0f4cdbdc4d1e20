import { FENCE, IMPORTED_NOTE, INTERRUPTED_NOTE, isMarkerLine } from './export';

/** What a Markdown export reads back as: the JSON import's shape (POST /api/conversations/import). */
export type MarkdownImport = {
  title: string;
  messages: Array<{
    role: 'user' | 'assistant';
    parts: Array<{ type: 'text'; text: string }>;
    metadata?: { interrupted: true };
  }>;
};

const ROLE_HEADINGS: Record<string, 'user' | 'assistant'> = {
  '## User': 'user',
  '## Assistant': 'assistant',
};

/**
 * Reads a conversation exported as Markdown (conversationToMarkdown) back: `# title`, then one `## User`
 * or `## Assistant` section per message. Each message's Markdown comes back as its text, tool calls
 * included as the fenced blocks they were exported as (a record, never run again). Headings inside code
 * fences are part of the text. Null when the document has no message sections (not one of our exports).
 */
export function parseConversationMarkdown(markdown: string): MarkdownImport | null {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  let title = 'Imported conversation';
  const messages: MarkdownImport['messages'] = [];
  // A line is kept with whether the export escaped it (a backslash before what would read as ours).
  let current: { role: 'user' | 'assistant'; lines: Array<[string, boolean]> } | null = null;
  let fence: { char: string; length: number } | null = null;

  const finish = () => {
    if (!current) return;
    const body = current.lines.filter(([l]) => l.trim() !== IMPORTED_NOTE);
    let interrupted = false;
    while (body.length && body[body.length - 1]?.[0].trim() === '') body.pop();
    if (body[body.length - 1]?.[0].trim() === INTERRUPTED_NOTE) {
      interrupted = true;
      body.pop();
    }
    const text = body
      .map(([l, escaped]) => (escaped ? l.replace(/^(\s*)\\/, '$1') : l))
      .join('\n')
      .trim();
    messages.push({
      role: current.role,
      parts: text ? [{ type: 'text', text }] : [],
      ...(interrupted ? { metadata: { interrupted: true as const } } : {}),
    });
  };

  for (const line of lines) {
    const marker = FENCE.exec(line)?.[1];
    const escaped = !fence && !marker && /^\s*\\/.test(line) && isMarkerLine(line);
    if (fence) {
      if (marker && marker[0] === fence.char && marker.length >= fence.length && line.trim() === marker)
        fence = null;
    } else if (marker) {
      fence = { char: marker[0] ?? '`', length: marker.length };
    } else {
      const role = ROLE_HEADINGS[line.trimEnd()];
      if (role) {
        finish();
        current = { role, lines: [] };
        continue;
      }
      if (!current && messages.length === 0 && /^# \S/.test(line)) {
        title = line.slice(2).trim().slice(0, 200) || title;
        continue;
      }
    }
    current?.lines.push([line, escaped]);
  }
  finish();
  const kept = messages.filter((m) => m.parts.length > 0);
  return kept.length > 0 ? { title, messages: kept } : null;
}

/**
 * Incremental parser for prompt-based tool calls: text streams through as it arrives, while
 * `<tool_use><name>N</name><arguments>{…}</arguments></tool_use>` blocks become call events.
 * Only a possible partial `<tool_use>` at the very end of the input is held back.
 */

export type ToolUseEvent =
  | { type: 'text'; text: string }
  | { type: 'tool-start'; id: string }
  /** `incomplete`: the block was never closed (the answer ended inside it); the fields hold what was captured. */
  | { type: 'tool-call'; id: string; name: string; argumentsJson: string; incomplete?: true };

export const OPEN_TAG = '<tool_use>';
export const CLOSE_TAG = '</tool_use>';

export function randomToolCallId(): string {
  return `ptc_${crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`;
}

/** Length of the longest suffix of `text` that is a proper prefix of `tag` (a tag that may still be arriving). */
function partialTagLength(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}

/** Arguments without surrounding whitespace or a Markdown code fence (```json … ``` or ``` … ```). */
export function cleanArguments(raw: string): string {
  let s = raw.trim();
  const fence = /^```[\w-]*[^\S\n]*\n?([\s\S]*?)\n?\s*(?:```)?$/.exec(s);
  if (fence) s = (fence[1] ?? '').trim();
  return s === '' ? '{}' : s;
}

/** Inner text of `<tag>…</tag>` in `body`; an unclosed tag runs to the end (minus a partial closing tag). */
function section(body: string, tag: string, last: boolean): string | undefined {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  const start = body.indexOf(open);
  if (start === -1) return undefined;
  const from = start + open.length;
  const end = last ? body.lastIndexOf(close) : body.indexOf(close, from);
  if (end >= from) return body.slice(from, end);
  const rest = body.slice(from);
  return rest.slice(0, rest.length - partialTagLength(rest, close));
}

/** Name and arguments of a block body; also accepts a bare `{"name": …, "arguments": …}` object. */
export function parseToolBody(body: string): { name: string; argumentsJson: string } {
  const name = section(body, 'name', false)?.split('<')[0];
  if (name === undefined) {
    try {
      const obj = JSON.parse(cleanArguments(body)) as { name?: unknown; arguments?: unknown };
      if (obj && typeof obj.name === 'string') {
        const args = obj.arguments ?? {};
        return {
          name: obj.name.trim(),
          argumentsJson: typeof args === 'string' ? cleanArguments(args) : JSON.stringify(args),
        };
      }
    } catch {
      // not the JSON form either: fall through
    }
  }
  const args = section(body, 'arguments', true);
  return { name: (name ?? '').trim(), argumentsJson: args === undefined ? '{}' : cleanArguments(args) };
}

export class ToolUseParser {
  private buffer = '';
  private inTag = false;
  private id = '';
  private ended = false;

  constructor(private readonly generateId: () => string = randomToolCallId) {}

  push(chunk: string): ToolUseEvent[] {
    if (this.ended) throw new Error('ToolUseParser: push after end');
    this.buffer += chunk;
    const events: ToolUseEvent[] = [];
    for (;;) {
      if (this.inTag) {
        const close = this.buffer.indexOf(CLOSE_TAG);
        if (close === -1) break;
        events.push({ type: 'tool-call', id: this.id, ...parseToolBody(this.buffer.slice(0, close)) });
        this.buffer = this.buffer.slice(close + CLOSE_TAG.length);
        this.inTag = false;
        continue;
      }
      const open = this.buffer.indexOf(OPEN_TAG);
      if (open === -1) {
        const keep = partialTagLength(this.buffer, OPEN_TAG);
        const text = this.buffer.slice(0, this.buffer.length - keep);
        if (text) events.push({ type: 'text', text });
        this.buffer = this.buffer.slice(text.length);
        break;
      }
      if (open > 0) events.push({ type: 'text', text: this.buffer.slice(0, open) });
      this.id = this.generateId();
      events.push({ type: 'tool-start', id: this.id });
      this.buffer = this.buffer.slice(open + OPEN_TAG.length);
      this.inTag = true;
    }
    return events;
  }

  /** Flushes held-back text, or reports an unclosed block as an incomplete call (never as raw tag text). */
  end(): ToolUseEvent[] {
    if (this.ended) return [];
    this.ended = true;
    const rest = this.buffer;
    this.buffer = '';
    if (!this.inTag) return rest ? [{ type: 'text', text: rest }] : [];
    const body = rest.slice(0, rest.length - partialTagLength(rest, CLOSE_TAG));
    return [{ type: 'tool-call', id: this.id, ...parseToolBody(body), incomplete: true }];
  }
}

/** Parses a complete answer at once. */
export function parseToolUses(text: string, generateId?: () => string): ToolUseEvent[] {
  const parser = new ToolUseParser(generateId);
  return [...parser.push(text), ...parser.end()];
}

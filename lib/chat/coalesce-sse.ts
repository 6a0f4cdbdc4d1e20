/**
 * Merges the text (and reasoning) deltas of an OpenAI-compatible Chat Completions stream into fewer,
 * larger events, on the bytes, before the AI SDK parses them.
 *
 * Every event otherwise walks a dozen web-stream stages (SSE parsing, JSON parsing and schema
 * validation of the chunk, AI SDK step handling, UI message chunks, SSE encoding, the turn buffer) to
 * end up in its own TCP write, and that per-event work is most of what a streamed answer costs the
 * server. Events that arrive in one network read leave together at the end of that read; after a delta
 * has left, the next ones are held until a window has passed since (50 ms, wider when the process
 * streams many answers at once: {@link coalesceWindowMs}), so a model streaming token by token is
 * passed on a few tokens at a time, at most that much later (20 updates a second, smooth to read). The
 * first delta with text is not delayed. Any other event (a tool call, the finish, usage, `[DONE]`, a
 * comment, anything this does not understand) first releases what is held, and so do the end of the
 * body and its failure (the text before a cut connection is kept). Only the chunking changes, never
 * the text or its order: an event is merged only into one of the same shape (one choice, the same delta
 * fields but the role, one kind of text, no usage; one with a role only into one with the same role),
 * and any other is passed on as it came (its lines ending in \n).
 * A provider that sends usage in every chunk is therefore passed on unmerged.
 */

/** At most one merged delta per stream this often (a model streaming token by token at 20 ms a token → ~1 in 3). */
export const COALESCE_WINDOW_MS = 50;
/** The longest window, when the process streams many answers at once. */
export const MAX_COALESCE_WINDOW_MS = 200;
/** The window grows by {@link COALESCE_WINDOW_MS} for each this many streams open at once in the process. */
export const STREAMS_PER_STEP = 10;

/**
 * The window when `open` streams pass through this process at once: 50 ms up to 10 streams, 100 ms up to
 * 20, 150 ms up to 30, then 200 ms. Each release costs the server ~0.4 ms of CPU (a dozen stream stages,
 * a TCP write), so under load the updates get fewer and larger (5 a second at worst) rather than
 * the CPU running out; the first token, tool calls and the end are never held.
 */
export function coalesceWindowMs(open: number): number {
  return Math.min(
    MAX_COALESCE_WINDOW_MS,
    COALESCE_WINDOW_MS * Math.max(1, Math.ceil(open / STREAMS_PER_STEP)),
  );
}

/** Streams open in this process now (the load signal for the window). */
let openStreams = 0;

/** The delta fields that carry streamed text (OpenAI `content`; DeepSeek/vLLM `reasoning_content`, `reasoning`). */
const TEXT_FIELDS = new Set(['content', 'reasoning_content', 'reasoning']);
const CHOICE_FIELDS = new Set(['index', 'delta', 'finish_reason', 'logprobs']);

type Chunk = { choices: Array<{ delta: Record<string, unknown> }>; [key: string]: unknown };

const textOf = (chunk: Chunk, field: string): string =>
  (chunk.choices[0]!.delta[field] as string | null) ?? '';

/**
 * An event held for merging: its original text and parsed chunk, and once merged, its text so far as
 * pieces of a JSON string's contents (escaped; escapes never span pieces, so they join as they are).
 * `own`: the template of the held event itself (its merged form is then written around the pieces);
 * `next`: the template the following events are recognised by (the held event's, or for an event
 * without text, such as the role chunk, the first event merged into it).
 */
type Pending = {
  raw: string;
  chunk: Chunk;
  field: string | null;
  /** The delta's fields but the role: events of one shape merge. */
  shape: string;
  role: string | undefined;
  pieces: string[] | null;
  own: Template | null;
  next: Template | null;
};

/** The text of a JSON string: its contents as written between the quotes. */
const escaped = (text: string) => JSON.stringify(text).slice(1, -1);

/**
 * The held event around its text: the next events of a stream usually differ from it only there, and
 * one that does is merged without being parsed (JSON.parse of every event was most of this module's cost).
 */
type Template = { prefix: string; suffix: string; inner: string };
/**
 * The template of a delta whose `field` holds `text`, when its key occurs once in the event (a key
 * cannot occur inside a string: its closing quote would be escaped) and the text is written as
 * JSON.stringify writes it; null otherwise (it is then merged by parsing, as before).
 */
function templateOf(raw: string, field: string, text: string): Template | null {
  const key = `"${field}":`;
  const at = raw.indexOf(key);
  if (at === -1 || raw.includes(key, at + 1)) return null;
  let start = at + key.length;
  while (raw.charCodeAt(start) === 32) start++;
  const literal = JSON.stringify(text);
  if (!raw.startsWith(literal, start)) return null;
  return {
    prefix: raw.slice(0, start),
    suffix: raw.slice(start + literal.length),
    inner: literal.slice(1, -1),
  };
}

/** The text (escaped) of an event that is the template's but for its text; null for any other event. */
function textInTemplate(block: string, t: Template): string | null {
  const end = block.length - t.suffix.length - 1; // the closing quote
  if (end <= t.prefix.length || !block.startsWith(t.prefix) || !block.endsWith(t.suffix)) return null;
  if (block.charCodeAt(t.prefix.length) !== 34 || block.charCodeAt(end) !== 34) return null;
  // What is between the quotes must be a JSON string's contents (RFC 8259): no bare quote or control
  // character, and only JSON's escapes.
  for (let i = t.prefix.length + 1; i < end; i++) {
    const c = block.charCodeAt(i);
    if (c === 34 || c < 32) return null;
    if (c !== 92) continue;
    const e = block.charCodeAt(++i);
    if (e === 117) {
      if (i + 4 >= end || !HEX4.test(block.slice(i + 1, i + 5))) return null;
      i += 4;
    } else if (i >= end || !ESCAPES.has(e)) return null;
  }
  return block.slice(t.prefix.length + 1, end);
}
const HEX4 = /^[0-9a-fA-F]{4}$/;
/** The characters after a backslash in a JSON string: " \\ / b f n r t (\u is checked apart). */
const ESCAPES = new Set([34, 92, 47, 98, 102, 110, 114, 116]);

/**
 * The event as a mergeable delta: one `data:` line with a chunk of one choice whose delta holds only
 * text fields (and the role), no finish reason, logprobs or usage. `field` is the one text field with
 * text (null when all are empty, e.g. the role chunk); `shape` names the delta's fields, so that only
 * events of the same shape merge.
 */
function asDelta(block: string): Omit<Pending, 'pieces' | 'own' | 'next'> | null {
  if (!block.startsWith('data:') || block.includes('\n')) return null;
  const data = block.charCodeAt(5) === 32 ? block.slice(6) : block.slice(5);
  if (data.charCodeAt(0) !== 123) return null; // not an object ('[DONE]', garbage)
  let chunk: Chunk;
  try {
    chunk = JSON.parse(data);
  } catch {
    return null;
  }
  if (chunk.usage != null || !Array.isArray(chunk.choices) || chunk.choices.length !== 1) return null;
  const choice = chunk.choices[0] as Record<string, unknown>;
  if (!choice || typeof choice !== 'object' || choice.finish_reason != null || choice.logprobs != null)
    return null;
  for (const key of Object.keys(choice)) if (!CHOICE_FIELDS.has(key)) return null;
  const delta = choice.delta;
  if (!delta || typeof delta !== 'object') return null;
  let field: string | null = null;
  let role: string | undefined;
  const keys = Object.keys(delta);
  for (const key of keys) {
    const value = (delta as Record<string, unknown>)[key];
    if (key === 'role') {
      if (typeof value !== 'string') return null;
      role = value;
    } else if (TEXT_FIELDS.has(key)) {
      if (value !== null && typeof value !== 'string') return null;
      if (value) {
        if (field) return null; // two kinds of text in one event: their order inside it is unknown
        field = key;
      }
    } else return null;
  }
  return { raw: block, chunk, field, shape: keys.filter((key) => key !== 'role').join(','), role };
}

/**
 * The merging itself, fed network reads as they come ({@link push}); what is to be passed on goes to
 * `emit`, as SSE text. {@link end} (the body ended) and {@link stop} (it failed, or the reader went
 * away) release what is held; nothing is emitted after either. Counted in the open streams until then.
 */
export class SseCoalescer {
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private pending: Pending | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastRelease = Number.NEGATIVE_INFINITY;
  private open = true;

  constructor(private readonly emit: (text: string) => void) {
    openStreams++;
  }

  /** One network read. */
  push(bytes: Uint8Array): void {
    if (!this.open) return;
    this.buffer += this.decoder.decode(bytes, { stream: true });
    // Lines may end in \r\n, \n or \r (a \r at the very end may be the first half of a \r\n).
    const cut = this.buffer.endsWith('\r') ? this.buffer.length - 1 : this.buffer.length;
    const raw = this.buffer.slice(0, cut);
    const text = raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
    const rest = this.buffer.slice(cut);
    let out = '';
    let start = 0;
    for (let end = text.indexOf('\n\n'); end !== -1; end = text.indexOf('\n\n', start)) {
      out += this.take(text.slice(start, end));
      start = end + 2;
    }
    this.buffer = text.slice(start) + rest;
    if (this.pending) {
      const wait = this.lastRelease + coalesceWindowMs(openStreams) - Date.now();
      if (wait <= 0) out += this.takePending();
      else this.timer ??= setTimeout(this.releaseLater, wait);
    }
    this.send(out);
  }

  /** The body ended: what is held, then any unterminated tail as it came. */
  end(): void {
    if (!this.open) return;
    const tail = (this.buffer + this.decoder.decode()).replace(/\r\n?/g, '\n');
    this.buffer = '';
    this.send(this.takePending() + tail);
    this.close();
  }

  /** The body failed (a cut connection) or the reader went away: what is held is released first. */
  stop(): void {
    if (!this.open) return;
    this.send(this.takePending());
    this.close();
  }

  private close(): void {
    this.open = false;
    openStreams--;
  }

  private send(text: string): void {
    if (text) this.emit(text);
  }

  private readonly releaseLater = (): void => {
    if (this.open) this.send(this.takePending());
  };

  /** The held event as text (merged or as it came), and nothing held afterwards. */
  private takePending(): string {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const p = this.pending;
    if (!p) return '';
    this.pending = undefined;
    // An empty delta (OpenAI's first chunk carries the role and "") starts no window: the first word is not held.
    if (p.field) this.lastRelease = Date.now();
    if (!p.pieces || p.pieces.length < 2) return `${p.raw}\n\n`;
    const inner = p.pieces.join('');
    if (p.own) return `${p.own.prefix}"${inner}"${p.own.suffix}\n\n`;
    (p.chunk.choices[0]!.delta as Record<string, unknown>)[p.field!] = JSON.parse(`"${inner}"`);
    return `data: ${JSON.stringify(p.chunk)}\n\n`;
  }

  /** One complete event: merged into the held one, held, or passed on after what is held. */
  private take(block: string): string {
    const pending = this.pending;
    if (pending?.next) {
      const inner = textInTemplate(block, pending.next);
      if (inner !== null) {
        // an empty delta of the same shape adds nothing
        if (inner) pending.pieces!.push(inner);
        return '';
      }
    }
    const d = asDelta(block);
    // Events of one shape merge, and one with a role only into one with the same role (Ollama sends
    // the role in every event; others only in the first, with no text).
    if (d && pending && d.shape === pending.shape && (d.role === undefined || d.role === pending.role)) {
      if (!d.field) return ''; // an empty delta of the same shape adds nothing
      if (!pending.field || pending.field === d.field) {
        const text = textOf(d.chunk, d.field);
        // (a held event with text has its pieces from the start: only one without text gets here)
        pending.pieces ??= [escaped(textOf(pending.chunk, d.field))];
        pending.pieces.push(escaped(text));
        pending.field = d.field;
        pending.next ??= templateOf(d.raw, d.field, text);
        return '';
      }
    }
    const out = this.takePending();
    if (d) {
      const own = d.field ? templateOf(d.raw, d.field, textOf(d.chunk, d.field)) : null;
      this.pending = { ...d, pieces: own && [own.inner], own, next: own };
      return out;
    }
    return `${out}${block}\n\n`;
  }
}

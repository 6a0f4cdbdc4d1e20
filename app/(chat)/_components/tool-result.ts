import type { ToolPart } from '@/lib/schemas/chat';
import { forUser } from '@/lib/schemas/tool-content';

/** Client-side reading of an MCP CallToolResult (untrusted: every field is checked). */
export type ResultBlock =
  | { kind: 'text'; text: string }
  | { kind: 'image'; src: string; alt: string }
  | { kind: 'audio'; src: string; mimeType: string }
  | { kind: 'link'; uri: string; name: string; description?: string; href: string | null }
  | { kind: 'resource-text'; uri: string; name: string; mimeType?: string; text: string }
  | { kind: 'resource-blob'; uri: string; name: string; mimeType: string; href: string; bytes: number };

/** The words a result's blocks carry, in the UI's language: an image's alt text, a content type not shown. */
export type ResultWords = { imageAlt: string; unshown: (kind: string) => string };

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const AUDIO_TYPES = new Set([
  'audio/wav',
  'audio/x-wav',
  'audio/wave',
  'audio/mpeg',
  'audio/mp3',
  'audio/ogg',
  'audio/webm',
  'audio/flac',
  'audio/aac',
  'audio/mp4',
]);
/** A MIME type safe to put in a data: URL (no parameters, no spaces, nothing to break out with). */
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const base64 = (v: string) => v.replace(/[^A-Za-z0-9+/=]/g, '');

/** Only http(s) URIs become links; anything else (file:, javascript:, data:…) stays text. */
export function safeHref(uri: string): string | null {
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** A download name from the last segment of a URI, without path or control characters. */
export function fileNameOf(uri: string, fallback = 'download'): string {
  const last = uri.split(/[?#]/)[0]?.split('/').filter(Boolean).at(-1) ?? '';
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {}
  name = [...name]
    .map((ch) => (ch.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(ch) ? '_' : ch))
    .join('')
    .slice(0, 120);
  return name && name !== '.' && name !== '..' ? name : fallback;
}

function resourceBlock(item: Record<string, unknown>): ResultBlock | null {
  const r = item.resource as Record<string, unknown> | undefined;
  const uri = str(r?.uri);
  if (!r || !uri) return null;
  const name = str(r.name) ?? str(r.title) ?? fileNameOf(uri, uri);
  const mimeType = str(r.mimeType);
  if (typeof r.text === 'string') return { kind: 'resource-text', uri, name, mimeType, text: r.text };
  const blob = str(r.blob);
  if (blob === undefined) return null;
  const type = mimeType && MIME.test(mimeType) ? mimeType : 'application/octet-stream';
  const data = base64(blob);
  return {
    kind: 'resource-blob',
    uri,
    name: fileNameOf(uri),
    mimeType: type,
    href: `data:${type};base64,${data}`,
    bytes: Math.floor((data.length * 3) / 4) - (data.match(/=+$/)?.[0].length ?? 0),
  };
}

function block(item: Record<string, unknown>, words: ResultWords): ResultBlock | null {
  const mimeType = str(item.mimeType) ?? '';
  switch (item?.type) {
    case 'text':
      return typeof item.text === 'string' ? { kind: 'text', text: item.text } : null;
    case 'image':
      if (typeof item.data !== 'string' || !IMAGE_TYPES.has(mimeType)) return null;
      return {
        kind: 'image',
        src: `data:${mimeType};base64,${base64(item.data)}`,
        alt: words.imageAlt,
      };
    case 'audio':
      if (typeof item.data !== 'string' || !AUDIO_TYPES.has(mimeType)) return null;
      return { kind: 'audio', src: `data:${mimeType};base64,${base64(item.data)}`, mimeType };
    case 'resource_link': {
      const uri = str(item.uri);
      if (!uri) return null;
      const name = str(item.title) ?? str(item.name) ?? uri;
      return { kind: 'link', uri, name, description: str(item.description), href: safeHref(uri) };
    }
    case 'resource':
      return resourceBlock(item);
    default:
      return null;
  }
}

export function resultBlocks(output: unknown, words: ResultWords): ResultBlock[] {
  const content = (output as { content?: unknown })?.content;
  if (!Array.isArray(content))
    return [{ kind: 'text', text: typeof output === 'string' ? output : JSON.stringify(output, null, 2) }];
  const blocks: ResultBlock[] = [];
  for (const item of content as Array<Record<string, unknown>>) {
    // `audience: ["assistant"]` is for the model only.
    if (!forUser(item)) continue;
    const b = block(item, words);
    if (b) blocks.push(b);
    else {
      const kind = item && typeof item === 'object' ? String(item.type) : typeof item;
      blocks.push({ kind: 'text', text: words.unshown(kind) });
    }
  }
  return blocks;
}

/** `structuredContent` when it is an object (MCP requires one), for a table or tree view. */
export function structuredOf(output: unknown): Record<string, unknown> | null {
  const s = (output as { structuredContent?: unknown })?.structuredContent;
  return s && typeof s === 'object' && !Array.isArray(s) ? (s as Record<string, unknown>) : null;
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

import 'server-only';
import { type CallToolResult, CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { FilePart, ModelMessage, TextPart, ToolResultPart } from 'ai';
import { forAssistant } from '@/lib/schemas/tool-content';

/**
 * What the model gets of an MCP tool result, and how its images reach a Chat Completions model.
 *
 * Chat Completions `tool` messages are text only (@ai-sdk/openai JSON-encodes a "content" tool output),
 * so images travel in two moves: `toolModelOutput` (the tools' `toModelOutput`) keeps them as file parts
 * of a "content" output, and `withToolMedia` (run by `prepareStep` before every step, over the stored
 * history and the steps of the running turn alike) turns each such output into text with a note in
 * place of each image, and sends the images themselves in a user message right after that step's tool
 * messages — or, for a model an admin marked as without vision, only the note.
 *
 * Audio and embedded blobs stay with the user (a player, a download): a Chat Completions model that
 * takes images would fail the whole request on an `input_audio` or PDF part it does not support.
 */

type ToolOutput = ToolResultPart['output'];
type ContentValue = Extract<ToolOutput, { type: 'content' }>['value'];
type Item = CallToolResult['content'][number];

/** Images, audio and blobs one result may keep, together (decoded bytes); they do not count against the text cap. */
export const MAX_MEDIA_BYTES = 2 * 1024 * 1024;

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decoded size of base64 text. */
export const base64Bytes = (data: string): number =>
  Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);

/** An item that carries bytes (image, audio, embedded blob) and how many. */
export function binaryBytes(item: Item): number | null {
  if (item.type === 'image' || item.type === 'audio') return base64Bytes(item.data);
  if (item.type === 'resource' && 'blob' in item.resource) return base64Bytes(item.resource.blob);
  return null;
}

function binaryNote(item: Item, bytes: number): string {
  const what =
    item.type === 'resource'
      ? `resource ${item.resource.uri}`
      : `${item.type} ${'mimeType' in item ? item.mimeType : ''}`;
  return `[${what.trim()}, ${bytes} bytes: left out, over the ${MAX_MEDIA_BYTES}-byte limit for media in one result]`;
}

/**
 * Keeps images, audio and blobs while they fit MAX_MEDIA_BYTES together, in order, and replaces the rest
 * with a note saying so: the 100 KB text cap (capResult) applies to everything else, so a screenshot
 * neither gets the rest of the result cut nor disappears without a word.
 */
export function budgetMedia(result: CallToolResult): CallToolResult {
  let used = 0;
  let changed = false;
  const content = result.content.map((item): Item => {
    const bytes = binaryBytes(item);
    if (bytes === null) return item;
    if (used + bytes <= MAX_MEDIA_BYTES) {
      used += bytes;
      return item;
    }
    changed = true;
    return { type: 'text', text: binaryNote(item, bytes) };
  });
  return changed ? { ...result, content } : result;
}

/** One item as the model reads it; null when it is not for the model. */
function modelPart(item: Item): ContentValue[number] | null {
  if (!forAssistant(item)) return null;
  switch (item.type) {
    case 'text':
      return { type: 'text', text: item.text };
    case 'image':
      if (IMAGE_TYPES.has(item.mimeType) && BASE64.test(item.data))
        return { type: 'file', mediaType: item.mimeType, data: { type: 'data', data: item.data } };
      return { type: 'text', text: `[image ${item.mimeType}: a format the model cannot be sent]` };
    case 'audio':
      return {
        type: 'text',
        text: `[audio ${item.mimeType}, ${base64Bytes(item.data)} bytes: played to the user, not sent to you]`,
      };
    case 'resource_link':
      return {
        type: 'text',
        text: `[resource link: ${item.name} <${item.uri}>${item.description ? ` — ${item.description}` : ''}]`,
      };
    case 'resource': {
      const r = item.resource;
      if ('text' in r) return { type: 'text', text: `[resource ${r.uri}]\n${r.text}` };
      const type = r.mimeType ? `${r.mimeType}, ` : '';
      return {
        type: 'text',
        text: `[resource ${r.uri} (${type}${base64Bytes(r.blob)} bytes): attached for the user to download]`,
      };
    }
    default:
      return null;
  }
}

/** The tools' `toModelOutput`: text for the model, with its images as file parts (see withToolMedia). */
export function toolModelOutput(result: CallToolResult): ToolOutput {
  const parts = result.content.map(modelPart).filter((p) => p !== null);
  if (!parts.some((p) => p.type === 'text') && result.structuredContent)
    parts.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
  if (!parts.some((p) => p.type === 'file'))
    return { type: 'text', value: parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n') };
  return { type: 'content', value: parts };
}

/** A stored output the tool set could not convert (tool gone, or tools off): a raw CallToolResult. */
function asContent(output: ToolOutput): ToolOutput {
  if (output.type !== 'json') return output;
  const parsed = CallToolResultSchema.safeParse(output.value);
  return parsed.success && Array.isArray((output.value as { content?: unknown })?.content)
    ? toolModelOutput(parsed.data)
    : output;
}

/** Splits a "content" output into text with notes, and the images to send after the tool messages. */
function splitOutput(
  part: ToolResultPart,
  vision: boolean,
): { part: ToolResultPart; media: Array<TextPart | FilePart> } {
  const output = asContent(part.output);
  if (output.type !== 'content')
    return { part: output === part.output ? part : { ...part, output }, media: [] };
  const texts: string[] = [];
  const media: Array<TextPart | FilePart> = [];
  for (const p of output.value) {
    if (p.type === 'text') texts.push(p.text);
    else if (p.type === 'file' && p.mediaType.startsWith('image') && vision) {
      texts.push(`[image ${p.mediaType}: shown to you in the next message]`);
      media.push({ type: 'text', text: `Image returned by ${part.toolName} (call ${part.toolCallId}):` });
      media.push({ type: 'file', mediaType: p.mediaType, data: p.data });
    } else if (p.type === 'file' && p.mediaType.startsWith('image'))
      texts.push(`[image ${p.mediaType}: shown to the user; this model cannot view images]`);
    else texts.push(`[${p.type === 'file' ? `file ${p.mediaType}` : p.type}: not sent to the model]`);
  }
  return { part: { ...part, output: { type: 'text', value: texts.join('\n') } }, media };
}

/**
 * The messages of a step with tool-result images moved out of the tool messages (see the top of this
 * file). Idempotent: `prepareStep`'s messages carry forward to the next step, already converted.
 */
export function withToolMedia(messages: ModelMessage[], vision: boolean): ModelMessage[] {
  const out: ModelMessage[] = [];
  let pending: Array<TextPart | FilePart> = [];
  const flush = () => {
    if (pending.length) out.push({ role: 'user', content: pending });
    pending = [];
  };
  for (const message of messages) {
    if (message.role !== 'tool') {
      flush();
      out.push(message);
      continue;
    }
    const content = message.content.map((part) => {
      if (part.type !== 'tool-result') return part;
      const split = splitOutput(part, vision);
      pending.push(...split.media);
      return split.part;
    });
    out.push({ ...message, content });
  }
  flush();
  return out;
}

import * as z from '@/lib/zod';
import type { ChatPart, MessageMetadata } from '@/lib/schemas/chat';

// Validation of stored message rows at the database edge: each part and metadata field is checked on
// its own, so one malformed piece never breaks a page or a turn (see parseStoredParts).

const str = z.string();
const field = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
const approval = { id: str };
const granted = z.object({ ...approval, approved: z.literal(true) }).optional();
const call = {
  type: z.literal('dynamic-tool'),
  toolName: str,
  toolCallId: str,
  toolMetadata: z.object({ server: str.optional(), tool: str.optional() }).optional(),
  input: z.unknown(),
};

/**
 * The part kinds a stored message may hold, with the fields the app and the SDK read from them. It only
 * checks: a valid part is kept as it was stored (provider metadata, approval signatures and all).
 * Part kinds we never store are not listed (sources, custom, steering, static `tool-*`, live progress).
 */
const StoredPartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: str }),
  z.object({ type: z.literal('reasoning'), text: str }),
  z.object({ type: z.literal('file'), mediaType: str, url: str }),
  z.object({ type: z.literal('step-start') }),
  z.discriminatedUnion('state', [
    z.object({ ...call, state: z.literal('input-streaming') }),
    z.object({ ...call, state: z.literal('input-available') }),
    z.object({ ...call, state: z.literal('approval-requested'), approval: z.object(approval) }),
    z.object({
      ...call,
      state: z.literal('approval-responded'),
      approval: z.object({ ...approval, approved: z.boolean(), reason: str.optional() }),
    }),
    z.object({ ...call, state: z.literal('output-available'), output: z.unknown(), approval: granted }),
    z.object({ ...call, state: z.literal('output-error'), errorText: str, approval: granted }),
    z.object({
      ...call,
      state: z.literal('output-denied'),
      approval: z.object({ ...approval, approved: z.literal(false) }),
    }),
  ]),
  z.object({
    type: z.literal('data-notice'),
    data: z.object({ kind: z.enum(['step-limit', 'connect', 'attachment']), text: str }),
  }),
  z.object({
    type: z.literal('data-resource'),
    data: z.object({
      server: str,
      uri: str,
      name: str.optional(),
      mimeType: str.optional(),
      text: str.optional(),
      /** When it was read for the message (ISO); `updatedAt` when read again since (its chip says "updated"). */
      readAt: str.optional(),
      updatedAt: str.optional(),
    }),
  }),
  z.object({ type: z.literal('data-app-message'), data: z.object({ server: str, tool: str }) }),
  z.object({ type: z.literal('data-app-context'), data: z.object({ server: str, tool: str, text: str }) }),
  z.object({
    type: z.literal('data-elicitation'),
    id: str.optional(),
    data: z.looseObject({
      toolCallId: str,
      server: str,
      mode: z.enum(['form', 'url']),
      message: str,
      status: z.enum([
        'pending',
        'accepted',
        'declined',
        'cancelled',
        'expired',
        'invalid',
        'opened',
        'completed',
      ]),
    }),
  }),
  z.object({
    type: z.literal('data-sampling'),
    id: str.optional(),
    data: z.looseObject({
      toolCallId: str,
      server: str,
      request: z.looseObject({
        messages: z.array(z.object({ role: z.enum(['user', 'assistant']), text: str })),
        maxTokens: z.number(),
      }),
      status: z.enum(['pending', 'running', 'done', 'denied', 'expired', 'failed']),
    }),
  }),
]) satisfies z.ZodType<ChatPart>;
const isStoredPart = (part: unknown): part is ChatPart => StoredPartSchema.safeParse(part).success;

/**
 * A stored message's parts (the JSON `parts` column). Each part is checked on its own: one of an unknown
 * kind or a malformed one (an older row, another SDK version, a hand edit) is left out and the rest of
 * the message kept, so one bad part never breaks a page or a chat turn. The row itself is not changed.
 * Sync and cheap next to reading the rows: ~2 ms CPU for a 5,000-message conversation with its metadata
 * (bench/stored-messages.ts), where the SDK's validateUIMessages is async, all-or-nothing and ~100× slower.
 */
export function parseStoredParts(raw: unknown): ChatPart[] {
  if (!Array.isArray(raw)) return [];
  return raw.every(isStoredPart) ? raw : raw.filter(isStoredPart);
}

/** Field by field: a malformed field is left out, not the metadata; keys not listed are kept as stored. */
const StoredMetadataSchema = z.looseObject({
  createdAt: field(z.number()),
  model: field(str),
  usage: field(
    z.looseObject({
      inputTokens: field(z.number()),
      outputTokens: field(z.number()),
      totalTokens: field(z.number()),
    }),
  ),
  cost: field(z.number().finite().min(0)),
  interrupted: field(z.boolean()),
  error: field(str),
  imported: field(z.boolean()),
}) satisfies z.ZodType<MessageMetadata>;

/** A stored message's metadata (the JSON `metadata` column); undefined when there is none or it is not an object. */
export function parseStoredMetadata(raw: unknown): MessageMetadata | undefined {
  const parsed = raw == null ? undefined : StoredMetadataSchema.safeParse(raw);
  return parsed?.success ? parsed.data : undefined;
}

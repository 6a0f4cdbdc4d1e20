import * as z from '@/lib/zod';
import { ToolSettingsSchema, ToolToggleSchema } from '@/lib/schemas/chat';
import { TextPartSchema } from '@/lib/schemas/chat-post';
import { nestsDeeperThan } from '@/lib/json-depth';
import { hasNoNul, NO_NUL, storableText } from '@/lib/stored-text';

/** Bodies and queries of the conversation routes (/api/conversations/…): rename, settings, pages, import. */

/** PUT /api/conversations/[id]/branch: the version of a message to show. */
export const BranchSelectSchema = z
  .object({ messageId: z.string().min(1).max(200).refine(hasNoNul, NO_NUL) })
  .strict();

export const RenameSchema = z
  .object({ title: z.string().trim().min(1, 'must not be empty').max(200).refine(hasNoNul, NO_NUL) })
  .strict();

/** The most characters of a conversation's (or an assistant's) instructions. */
export const MAX_INSTRUCTIONS_CHARS = 8000;

/**
 * PATCH /api/conversations/[id]: rename, tool settings and/or its instructions ("" or null clears them).
 * `toggles` switch servers and tools on or off against the stored settings (what the Tools menu sends);
 * `servers` and `disabledTools` replace the stored lists, so they do not go with `toggles`.
 */
export const ConversationPatchSchema = ToolSettingsSchema.extend({
  title: RenameSchema.shape.title.optional(),
  instructions: z
    .string()
    .max(MAX_INSTRUCTIONS_CHARS, `must be at most ${MAX_INSTRUCTIONS_CHARS} characters`)
    .refine(hasNoNul, NO_NUL)
    .nullable()
    .optional(),
  toggles: z.array(ToolToggleSchema).min(1).max(1000).optional(),
})
  .strict()
  .superRefine((body, ctx) => {
    if (body.toggles && (body.servers !== undefined || body.disabledTools !== undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['toggles'],
        message: 'cannot go with servers or disabledTools (those replace the lists the toggles change)',
      });
  });
export type ConversationPatchBody = z.infer<typeof ConversationPatchSchema>;

/** GET /api/conversations/[id]: `?messages=0` answers the conversation without its messages. */
export const ConversationGetQuerySchema = z.object({ messages: z.enum(['0', '1']).default('1') });

/** GET /api/conversations/[id]/messages: the page of messages just before position `before`. */
export const MessagePageQuerySchema = z.object({
  /** The id of the oldest message already loaded. */
  before: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

export const ListQuerySchema = z.object({
  q: z.string().max(200).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(30),
});

/** A conversation file is 6 levels deep to a tool call's arguments or result; those rarely nest more than a few. */
const MAX_IMPORT_DEPTH = 64;
/** An import's size besides its attachments (the route allows more, for attachments inlined as data: URLs). */
const MAX_IMPORT_TEXT_CHARS = 10 * 1024 * 1024;
const textChars = (file: unknown) =>
  JSON.stringify(file, (key, v) => (key === 'url' && typeof v === 'string' && v.startsWith('data:') ? '' : v))
    .length;

const ImportedToolPartSchema = z
  .object({
    type: z.literal('dynamic-tool'),
    toolName: z.string().min(1).max(200),
    toolCallId: z.string().min(1).max(200),
    state: z.enum(['output-available', 'output-error', 'output-denied']),
    input: z.unknown(),
    output: z.unknown().optional(),
    errorText: z.string().max(100_000).optional(),
    toolMetadata: z.object({ server: z.string().max(64), tool: z.string().max(200) }).optional(),
  })
  .loose();

/** An exported conversation (GET …/export?format=json) brought back as a new conversation. */
export const ConversationImportSchema = z
  .object({
    // A file's title is kept as written, U+FFFD for a NUL (an export of a chat titled before titles lost theirs).
    title: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .transform((t) => storableText(t))
      .default('Imported conversation'),
    messages: z
      .array(
        z.object({
          /** The message's id in the file and the id of the message it follows (an export with branches). */
          id: z.string().min(1).max(200).optional(),
          parentId: z.string().min(1).max(200).nullable().optional(),
          role: z.enum(['user', 'assistant']),
          parts: z
            .array(z.union([TextPartSchema, ImportedToolPartSchema, z.object({ type: z.string() }).loose()]))
            .max(500),
          metadata: z.record(z.string(), z.unknown()).optional(),
        }),
      )
      .min(1)
      .max(5000),
    /** The last message of the selected path (an export with branches); default: the last message. */
    selectedId: z.string().min(1).max(200).optional(),
  })
  .loose()
  .superRefine((file, ctx) => {
    // Walked without recursion first: storing a value nested thousands deep would overflow the stack.
    if (nestsDeeperThan(file, MAX_IMPORT_DEPTH))
      ctx.addIssue({ code: 'custom', message: `the file is nested deeper than ${MAX_IMPORT_DEPTH} levels` });
    else if (textChars(file) > MAX_IMPORT_TEXT_CHARS)
      ctx.addIssue({ code: 'custom', message: 'the file is over 10 MB without its attachments' });
  });

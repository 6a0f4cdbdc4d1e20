import * as z from '@/lib/zod';
import { ConversationIdSchema, ToolSettingsSchema } from '@/lib/schemas/chat';
import { MAX_MESSAGE_CHARS } from '@/lib/message-limits';
import { hasNoNul, NO_NUL } from '@/lib/stored-text';

/** A message's id, stored as text (so no NUL: lib/stored-text.ts). */
const messageId = (max: number) => z.string().min(1).max(max).refine(hasNoNul, NO_NUL);

/** The body of POST /api/chat (SPEC §4): a new user message and its parts, or approval answers. */

export const TextPartSchema = z
  .object({
    type: z.literal('text'),
    text: z.string().max(MAX_MESSAGE_CHARS, `must be at most ${MAX_MESSAGE_CHARS} characters`),
    state: z.enum(['streaming', 'done']).optional(),
  })
  .strict();

/** An MCP resource attached with `@`: the client names it, the server reads it. */
const ResourcePartSchema = z
  .object({
    type: z.literal('data-resource'),
    data: z
      .object({
        server: z.string().max(64),
        uri: z.string().min(1).max(2048),
        name: z.string().max(200).optional(),
      })
      .strict(),
  })
  .strict();

/** Marks a message an MCP App sent for the user (`ui/message`): which app it came from. */
const AppMessagePartSchema = z
  .object({
    type: z.literal('data-app-message'),
    data: z.object({ server: z.string().max(64), tool: z.string().max(200) }).strict(),
  })
  .strict();

/** Context an MCP App shared for the model (`ui/update-model-context`), sent with this message. */
const AppContextPartSchema = z
  .object({
    type: z.literal('data-app-context'),
    data: z
      .object({ server: z.string().max(64), tool: z.string().max(200), text: z.string().min(1).max(20_000) })
      .strict(),
  })
  .strict();

/** A file uploaded with POST /api/files (SPEC §7.4); the server checks it is the sender's and stores its own type and name. */
export const FILE_PART_URL = /^\/api\/files\/[A-Za-z0-9_-]{16,64}$/;
const FilePartSchema = z
  .object({
    type: z.literal('file'),
    mediaType: z.string().max(200),
    url: z.string().regex(FILE_PART_URL, 'must be a URL answered by POST /api/files'),
    filename: z.string().max(300).optional(),
  })
  .strict();

/** The user's new message, as `useChat` sends it (client metadata is accepted but never stored). */
export const UserMessageSchema = z
  .object({
    id: messageId(128),
    role: z.literal('user'),
    parts: z
      .array(
        z.union([
          TextPartSchema,
          ResourcePartSchema,
          FilePartSchema,
          AppMessagePartSchema,
          AppContextPartSchema,
        ]),
      )
      .min(1)
      .max(20)
      .refine((parts) => parts.filter((p) => p.type === 'data-app-message').length <= 1, {
        message: 'at most one app-message mark',
      }),
    metadata: z.unknown().optional(),
  })
  .strict()
  .refine((m) => m.parts.some((p) => (p.type === 'text' && p.text.trim().length > 0) || p.type === 'file'), {
    message: 'message is empty',
    path: ['parts'],
  });

/** POST /api/chat (SPEC §4): the client sends only the new message (and, for a new chat, its tool settings). */
export const ChatRequestSchema = z
  .object({
    id: ConversationIdSchema,
    message: UserMessageSchema,
    /**
     * The message the new one follows (null: the first message). An edit names the edited message's
     * parent, so the edit is a new version beside it. Omitted: the end of the selected path.
     */
    parentId: messageId(200).nullable().optional(),
    model: z.string().min(1).max(200).optional(),
    tools: ToolSettingsSchema.optional(),
    /** With a conversation's first message: the assistant it starts with (ignored afterwards). */
    assistantId: z.string().min(1).max(64).optional(),
    /**
     * true: the client has seen this conversation stored, so a missing one was deleted (in another tab,
     * say) and the message is refused with 404 rather than starting it again.
     */
    existing: z.literal(true).optional(),
  })
  .strict();
export type ChatRequest = z.infer<typeof ChatRequestSchema>;

/** Approval answers for pending tool calls, sent instead of a new message (SPEC §4 extension). */
export const ApprovalSchema = z
  .object({
    id: messageId(200),
    approved: z.boolean(),
    reason: z.string().max(1000).optional(),
    /** "Always allow this tool in this conversation". */
    always: z.boolean().optional(),
  })
  .strict();
export type Approval = z.infer<typeof ApprovalSchema>;

export const ApprovalRequestSchema = z
  .object({
    id: ConversationIdSchema,
    approvals: z.array(ApprovalSchema).min(1).max(50),
    model: z.string().min(1).max(200).optional(),
  })
  .strict();

/** POST /api/chat takes either a new user message or approval answers. */
export const ChatPostSchema = z.union([ChatRequestSchema, ApprovalRequestSchema]);
export type ChatPost = z.infer<typeof ChatPostSchema>;

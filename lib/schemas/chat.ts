import type { UIMessage, UITool } from 'ai';
import { z } from 'zod';

export const CONVERSATION_ID = /^[A-Za-z0-9_-]{8,64}$/;
export const MAX_MESSAGE_CHARS = 100_000;

export const ConversationIdSchema = z.string().regex(CONVERSATION_ID, 'must match ^[A-Za-z0-9_-]{8,64}$');

const TextPartSchema = z
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

/** The user's new message, as `useChat` sends it (client metadata is accepted but never stored). */
export const UserMessageSchema = z
  .object({
    id: z.string().min(1).max(128),
    role: z.literal('user'),
    parts: z
      .array(z.union([TextPartSchema, ResourcePartSchema]))
      .min(1)
      .max(20),
    metadata: z.unknown().optional(),
  })
  .strict()
  .refine((m) => m.parts.some((p) => p.type === 'text' && p.text.trim().length > 0), {
    message: 'message is empty',
    path: ['parts'],
  });

export const ToolModeSchema = z.enum(['off', 'auto', 'required']);
export type ToolMode = z.infer<typeof ToolModeSchema>;

/** A conversation's tool settings (PATCH /api/conversations/[id], and with a new chat's first message). */
export const ToolSettingsSchema = z
  .object({
    toolMode: ToolModeSchema,
    /** Server names this conversation may use; null = every enabled server. */
    servers: z.array(z.string().max(64)).max(100).nullable(),
    /** `server/tool` entries switched off in this conversation. */
    disabledTools: z.array(z.string().max(300)).max(1000),
    maxSteps: z.number().int().min(1).max(100).nullable(),
    maxToolCalls: z.number().int().min(1).max(200).nullable(),
  })
  .partial()
  .strict();
export type ToolSettings = z.infer<typeof ToolSettingsSchema>;

/** POST /api/chat (SPEC §4): the client sends only the new message (and, for a new chat, its tool settings). */
export const ChatRequestSchema = z
  .object({
    id: ConversationIdSchema,
    message: UserMessageSchema,
    /**
     * The message the new one follows (null: the first message). An edit names the edited message's
     * parent, so the edit is a new version beside it. Omitted: the end of the selected path.
     */
    parentId: z.string().min(1).max(200).nullable().optional(),
    model: z.string().min(1).max(200).optional(),
    tools: ToolSettingsSchema.optional(),
    /** With a conversation's first message: the assistant it starts with (ignored afterwards). */
    assistantId: z.string().min(1).max(64).optional(),
  })
  .strict();
export type ChatRequest = z.infer<typeof ChatRequestSchema>;

/** PUT /api/conversations/[id]/branch: the version of a message to show. */
export const BranchSelectSchema = z.object({ messageId: z.string().min(1).max(200) }).strict();

export const RenameSchema = z
  .object({ title: z.string().trim().min(1, 'must not be empty').max(200) })
  .strict();

/** The most characters of a conversation's (or an assistant's) instructions. */
export const MAX_INSTRUCTIONS_CHARS = 8000;

/** PATCH /api/conversations/[id]: rename, tool settings and/or its instructions ("" or null clears them). */
export const ConversationPatchSchema = ToolSettingsSchema.extend({
  title: RenameSchema.shape.title.optional(),
  instructions: z
    .string()
    .max(MAX_INSTRUCTIONS_CHARS, `must be at most ${MAX_INSTRUCTIONS_CHARS} characters`)
    .nullable()
    .optional(),
}).strict();

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

/** What the app keeps in a message's metadata. */
export type MessageMetadata = {
  createdAt?: number;
  model?: string;
  usage?: { inputTokens?: number; outputTokens?: number; totalTokens?: number };
  /** USD, from the admin's price for the model when the answer was written (lib/usage.ts). */
  cost?: number;
  interrupted?: boolean;
  error?: string;
  /** Written by an import (set by the server, whatever the file said): it did not happen here, its tool calls never ran here. */
  imported?: boolean;
};

/** Custom data parts in assistant messages: live MCP progress (not stored) and visible notices. */
export type ChatDataParts = {
  'tool-progress': { progress: number; total?: number; message?: string };
  /** `connect`: a server this turn would use needs the user to sign in or supply a value first. */
  notice: { kind: 'step-limit' | 'connect'; text: string };
  /** `updatedAt`: read again after the server said it changed (resources/subscribe). */
  resource: ResourceRead & { updatedAt?: string };
  /** A server asked the user something during a tool call (MCP elicitation); id = the request's id. */
  elicitation: {
    toolCallId: string;
    server: string;
    mode: 'form' | 'url';
    message: string;
    /** Form mode: the requested schema (shown as a form; see lib/elicitation-form). */
    schema?: unknown;
    /** URL mode: the page the user is asked to open. */
    url?: string;
    status: ElicitationStatus;
    content?: Record<string, string | number | boolean | string[]>;
    error?: string;
  };
  /** A server asked to use the model during a tool call (MCP sampling); id = the request's id. */
  sampling: {
    toolCallId: string;
    server: string;
    request: {
      messages: Array<{ role: 'user' | 'assistant'; text: string }>;
      systemPrompt?: string;
      maxTokens: number;
    };
    status: 'pending' | 'running' | 'done' | 'denied' | 'expired' | 'failed';
    /** Run without asking (the admin set the server to "sample without asking"). */
    auto?: boolean;
    model?: string;
    answer?: string;
    error?: string;
    usage?: { inputTokens?: number; outputTokens?: number };
  };
};
export type ElicitationStatus =
  | 'pending'
  | 'accepted'
  | 'declined'
  | 'cancelled'
  | 'expired'
  | 'invalid'
  /** URL mode: the user opened the link; the server has not said it is done yet. */
  | 'opened'
  | 'completed';
type ResourceRead = { server: string; uri: string; name?: string; mimeType?: string; text?: string };
export type ToolProgress = ChatDataParts['tool-progress'];

/** MCP tools are found at runtime, so every tool call is a `dynamic-tool` part, never a static `tool-<name>` one. */
type NoStaticTools = Record<never, UITool>;

/** The one message type of the UI, the chat loop and the database: the AI SDK's UIMessage with our metadata and data parts. */
export type ChatMessage = UIMessage<MessageMetadata, ChatDataParts, NoStaticTools>;
export type ChatPart = ChatMessage['parts'][number];
/** An MCP tool call; its states are the SDK's, `input-streaming` … `output-denied`. */
export type ToolPart = Extract<ChatPart, { type: 'dynamic-tool' }>;
export type ToolState = ToolPart['state'];

/** Approval answers for pending tool calls, sent instead of a new message (SPEC §4 extension). */
export const ApprovalSchema = z
  .object({
    id: z.string().min(1).max(200),
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
    title: z.string().trim().min(1).max(200).default('Imported conversation'),
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
  .loose();

export const ShareCreateSchema = z
  .object({ includeToolDetails: z.boolean().default(false), includeOwnerName: z.boolean().default(false) })
  .strict();

export const PromptGetSchema = z
  .object({
    server: z.string().max(64),
    name: z.string().min(1).max(200),
    arguments: z.record(z.string().max(200), z.string().max(10_000)).default({}),
  })
  .strict();
export const PromptCompleteSchema = z
  .object({
    server: z.string().max(64),
    prompt: z.string().min(1).max(200),
    argument: z.string().min(1).max(200),
    value: z.string().max(1000),
  })
  .strict();

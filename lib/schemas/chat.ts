import type { UIMessage, UITool } from 'ai';
import * as z from '@/lib/zod';

export const CONVERSATION_ID = /^[A-Za-z0-9_-]{8,64}$/;
export const ConversationIdSchema = z.string().regex(CONVERSATION_ID, 'must match ^[A-Za-z0-9_-]{8,64}$');

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

/**
 * One switch of the Tools menu: a server (no `tool`) or one of its tools on or off. Sent as the change
 * itself (`toggles` of PATCH /api/conversations/[id]), which the server applies to what is stored, so
 * two tabs switching different tools both keep theirs (lib/tool-toggles.ts).
 */
export const ToolToggleSchema = z
  .object({
    server: z.string().min(1).max(64),
    /** A tool of `server`; without it, the server itself. */
    tool: z.string().min(1).max(235).optional(),
    on: z.boolean(),
  })
  .strict();
export type ToolToggle = z.infer<typeof ToolToggleSchema>;

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
  /** `connect`: a server this turn would use needs the user to sign in or supply a value first. `attachment`: an attachment the model could not take (an image for a model without vision). */
  notice: { kind: 'step-limit' | 'connect' | 'attachment'; text: string };
  /** A user message an MCP App sent (`ui/message`), marked with the app it came from. */
  'app-message': { server: string; tool: string };
  /** Context an MCP App shared for the model (`ui/update-model-context`), sent with a user message. */
  'app-context': { server: string; tool: string; text: string };
  /** `readAt`: when it was read for the message; `updatedAt`: read again after the server said it changed (resources/subscribe). */
  resource: ResourceRead & { readAt?: string; updatedAt?: string };
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

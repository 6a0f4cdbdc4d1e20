import 'server-only';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import {
  convertToModelMessages,
  createIdGenerator,
  createUIMessageStream,
  type InferUIMessageChunk,
  isStepCount,
  type LanguageModel,
  streamText,
  type ToolSet,
  toUIMessageStream,
  type UIMessageChunk,
} from 'ai';
import { failUnavailableApprovals } from '@/lib/chat/approvals';
import { describeProviderError } from '@/lib/chat/provider-errors';
import { withToolMedia } from '@/lib/chat/tool-media';
import type { ToolEntry } from '@/lib/chat/tools';
import { createToolSearch, SEARCH_TOOL } from '@/lib/chat/tool-search';
import type { ChatMessage, MessageMetadata } from '@/lib/schemas/chat';
import type { ToolSearchBudget } from '@/lib/schemas/tool-budget';
import { costOf, type ModelPrice } from '@/lib/usage';
import { loggable } from '@/lib/loggable';

export type Toolkit = {
  tools: ToolSet;
  entries: Map<string, ToolEntry>;
  /** Whether a call of this tool runs without asking (asked per call: policies can change meanwhile). */
  isAllowed: (entry: ToolEntry) => boolean | Promise<boolean>;
  /** Shown at the start of the answer: servers left out until the user connects them. */
  notices?: string[];
};

export type TurnWriter = (chunk: InferUIMessageChunk<ChatMessage>) => void;

export type TurnInput = {
  model: LanguageModel;
  modelId: string;
  instructions: string;
  /** Sampling temperature; undefined = the provider's default. */
  temperature?: number;
  /** The stored conversation, ending with the user's new message (or the answer awaiting approvals). */
  history: ChatMessage[];
  /** Shown at the start of the answer: attachments the model could not take (kind `attachment`). */
  notices?: string[];
  /** Aborted by Stop, a deletion or shutdown; the partial answer is then saved as interrupted. */
  abortSignal: AbortSignal;
  /** Called exactly once when the answer ends, however it ends. */
  save: (message: ChatMessage) => Promise<void> | void;
  /**
   * The MCP tools of this turn; `emitProgress` forwards a server's progress to the tool card, `emit`
   * writes a part of the answer (a server's elicitation or sampling request, shown in its tool card).
   */
  prepareTools?: (emitProgress: (toolCallId: string, p: Progress) => void, emit: TurnWriter) => Toolkit;
  /** off: no tools are sent; auto: the model decides; required: the first step must call a tool. */
  toolMode: 'off' | 'auto' | 'required';
  /** False for prompt-mode models, where a forced tool choice would fail the step instead of guiding the model. */
  enforceToolChoice: boolean;
  maxSteps: number;
  /** Tool calls allowed in one turn; at the limit the model is asked to answer without tools. */
  maxToolCalls: number;
  maxParallelTools: number;
  /** Above it the model gets a tool search instead of every tool (lib/chat/tool-search.ts). */
  toolSearch?: ToolSearchBudget;
  /** False when an admin marked the model as without vision: tool images reach it as a note only. */
  vision: boolean;
  /** Signs approval requests so a client cannot forge an approval. */
  approvalSecret: string;
  /** The admin's price for this model: the answer's metadata then carries its cost. */
  price?: ModelPrice;
};

const messageId = createIdGenerator({ prefix: 'msg', size: 16 });

/** Messages that carry something for the model (an answer that failed before any output carries nothing). */
function hasContent(m: ChatMessage): boolean {
  return m.parts.some((p) => p.type !== 'step-start');
}

/**
 * Runs one chat turn — model, tools, approvals, step cap — as a UI message stream. Whoever reads it
 * drives the turn; `save` is called once at its end, however it ends.
 */
export async function runChatTurn(input: TurnInput): Promise<ReadableStream<UIMessageChunk>> {
  let failure: string | undefined;
  const describe = (error: unknown) => {
    if (failure === undefined) {
      failure = describeProviderError(error);
      console.warn('[chat] model call failed:', failure);
    }
    return failure;
  };

  const stream = createUIMessageStream<ChatMessage>({
    originalMessages: input.history,
    generateId: messageId,
    execute: async ({ writer }) => {
      const toolkit =
        input.toolMode === 'off'
          ? undefined
          : input.prepareTools?.(
              (toolCallId, p) =>
                writer.write({
                  type: 'data-tool-progress',
                  id: toolCallId,
                  data: { progress: p.progress, total: p.total, message: p.message },
                  transient: true,
                }),
              (chunk) => writer.write(chunk),
            );
      const search = toolkit && createToolSearch(toolkit, input.toolSearch, input.history);
      const tools = search?.tools ?? toolkit?.tools ?? {};
      // Once per conversation: a notice already shown in an earlier answer is not repeated.
      const shown = new Set(
        input.history.flatMap((m) => m.parts.flatMap((p) => (p.type === 'data-notice' ? [p.data.text] : []))),
      );
      for (const text of input.notices ?? [])
        if (!shown.has(text)) writer.write({ type: 'data-notice', data: { kind: 'attachment', text } });
      for (const text of toolkit?.notices ?? [])
        if (!shown.has(text)) writer.write({ type: 'data-notice', data: { kind: 'connect', text } });
      // An approved call whose tool is gone since it was asked about ends as a tool error (in the answer too).
      const history = input.history.map((m, i, all) => {
        if (i < all.length - 1 || m.role !== 'assistant') return m;
        const { parts, failed } = failUnavailableApprovals(m.parts, (name) => Object.hasOwn(tools, name));
        for (const { toolCallId, errorText } of failed)
          writer.write({ type: 'tool-output-error', toolCallId, errorText, dynamic: true });
        return failed.length ? { ...m, parts } : m;
      });
      const messages = await convertToModelMessages<ChatMessage>(history.filter(hasContent), {
        tools,
        ignoreIncompleteToolCalls: true,
        // An attached MCP resource reaches the model as marked text; notices and progress stay in the UI.
        convertDataPart: (part) => {
          // Context an MCP App shared reaches the model as marked text, named by its app.
          if (part.type === 'data-app-context')
            return {
              type: 'text',
              text: `<app-context server="${part.data.server}" tool="${part.data.tool}">\n${part.data.text}\n</app-context>`,
            };
          if (part.type !== 'data-resource') return undefined;
          const r = part.data;
          return {
            type: 'text',
            text: `<resource uri="${r.uri}" server="${r.server}">\n${r.text ?? ''}\n</resource>`,
          };
        },
      });
      const result = streamText({
        model: input.model,
        instructions:
          input.toolMode === 'required' && !input.enforceToolChoice && Object.keys(tools).length
            ? `${input.instructions}\nBefore answering, call at least one of the available tools.`
            : input.instructions,
        messages,
        ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
        tools,
        toolCallConcurrency: input.maxParallelTools,
        toolApproval: async ({ toolCall }) => {
          const entry = toolkit?.entries.get(toolCall.toolName);
          return entry && !(await toolkit?.isAllowed(entry)) ? 'user-approval' : undefined;
        },
        experimental_toolApprovalSecret: input.approvalSecret,
        stopWhen: isStepCount(input.maxSteps),
        prepareStep: ({ stepNumber, steps, messages: stepMessages }) => {
          // In search mode a step sees the search tool and what it loaded; searches are not MCP calls.
          // Tool-result images go to the model in a user message after the tool messages (tool-media.ts).
          const step = {
            messages: withToolMedia(stepMessages, input.vision),
            ...(search && { activeTools: search.activeTools() }),
          };
          const calls = steps.reduce(
            (n, done) => n + done.toolCalls.filter((c) => c.toolName !== SEARCH_TOOL).length,
            0,
          );
          const limit =
            stepNumber >= input.maxSteps - 1
              ? `Reached the limit of ${input.maxSteps} steps`
              : calls >= input.maxToolCalls
                ? `Reached the limit of ${input.maxToolCalls} tool calls`
                : null;
          if (limit) {
            writer.write({
              type: 'data-notice',
              data: {
                kind: 'step-limit',
                text: `${limit}: the model was asked to answer without more tool calls.`,
              },
            });
            return { toolChoice: 'none', ...step };
          }
          // Models in prompt mode can't be forced by the API; their system prompt asks for a call instead.
          if (
            stepNumber === 0 &&
            input.toolMode === 'required' &&
            input.enforceToolChoice &&
            Object.keys(tools).length
          )
            return { toolChoice: 'required', ...step };
          return step;
        },
        abortSignal: input.abortSignal,
        maxRetries: 0,
        // Failures are reported once, by `describe`, without the request body (it holds the conversation).
        onError: () => {},
      });
      writer.merge(
        toUIMessageStream<ToolSet, ChatMessage>({
          stream: result.stream,
          messageMetadata: ({ part }) => {
            if (part.type === 'start') return { createdAt: Date.now(), model: input.modelId };
            if (part.type === 'finish') {
              const { inputTokens, outputTokens, totalTokens } = part.totalUsage;
              const usage = { inputTokens, outputTokens, totalTokens };
              const cost = costOf(usage, input.price);
              return { usage, ...(cost === undefined ? {} : { cost }) };
            }
            return undefined;
          },
          onError: describe,
          redactToolErrors: false,
        }),
      );
    },
    // A source stream that breaks (a provider cutting the connection) becomes an error chunk, not a broken response.
    onError: describe,
    onEnd: async ({ responseMessage, isAborted }) => {
      const interrupted = isAborted || input.abortSignal.aborted || failure !== undefined;
      const metadata: MessageMetadata = {
        createdAt: Date.now(),
        model: input.modelId,
        ...responseMessage.metadata,
        ...(interrupted ? { interrupted: true } : {}),
        ...(failure ? { error: failure } : {}),
      };
      try {
        await input.save({ ...responseMessage, metadata });
      } catch (err) {
        console.error('[chat] could not store the answer', loggable(err));
      }
    },
  });

  return stream;
}

import 'server-only';
import {
  consumeStream,
  convertToModelMessages,
  createIdGenerator,
  createUIMessageStream,
  createUIMessageStreamResponse,
  type LanguageModel,
  streamText,
  type ToolSet,
  toUIMessageStream,
  type UIMessage,
} from 'ai';
import { describeProviderError } from '@/lib/chat/provider-errors';
import type { MessageMetadata } from '@/lib/schemas/chat';

export type ChatMessage = UIMessage<MessageMetadata>;

export type TurnInput = {
  model: LanguageModel;
  modelId: string;
  instructions: string;
  /** The stored conversation, ending with the user's new message. */
  history: ChatMessage[];
  /** Aborted by Stop or a disconnect; the partial answer is then saved as interrupted. */
  abortSignal: AbortSignal;
  /** Called exactly once when the answer ends, however it ends. */
  save: (message: ChatMessage) => void;
};

const messageId = createIdGenerator({ prefix: 'msg', size: 16 });

/** Messages that carry something for the model (an answer that failed before any output carries nothing). */
function hasContent(m: ChatMessage): boolean {
  return m.parts.some((p) => p.type !== 'step-start');
}

/** Runs one chat turn and answers with the AI SDK UI message stream (SSE). */
export async function runChatTurn(input: TurnInput): Promise<Response> {
  const modelMessages = await convertToModelMessages(input.history.filter(hasContent));
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
    execute: ({ writer }) => {
      const result = streamText({
        model: input.model,
        instructions: input.instructions,
        messages: modelMessages,
        abortSignal: input.abortSignal,
        maxRetries: 0,
        // Failures are reported once, by `describe`, without the request body (it holds the conversation).
        onError: () => {},
      });
      writer.merge(
        toUIMessageStream<ToolSet, ChatMessage>({
          stream: result.stream,
          sendStart: true,
          messageMetadata: ({ part }) => {
            if (part.type === 'start') return { createdAt: Date.now(), model: input.modelId };
            if (part.type === 'finish') {
              const { inputTokens, outputTokens, totalTokens } = part.totalUsage;
              return { usage: { inputTokens, outputTokens, totalTokens } };
            }
            return undefined;
          },
          onError: describe,
        }),
      );
    },
    // A source stream that breaks (a provider cutting the connection) becomes an error chunk, not a broken response.
    onError: describe,
    onEnd: ({ responseMessage, isAborted }) => {
      const interrupted = isAborted || input.abortSignal.aborted || failure !== undefined;
      const metadata: MessageMetadata = {
        createdAt: Date.now(),
        model: input.modelId,
        ...responseMessage.metadata,
        ...(interrupted ? { interrupted: true } : {}),
        ...(failure ? { error: failure } : {}),
      };
      try {
        input.save({ ...responseMessage, metadata });
      } catch (err) {
        console.error('[chat] could not store the answer', err);
      }
    },
  });

  return createUIMessageStreamResponse({ stream, consumeSseStream: consumeStream });
}

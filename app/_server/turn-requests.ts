import 'server-only';
import { randomUUID } from 'node:crypto';
import type {
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { checkAnswer, type ElicitField, formFields } from '@/lib/elicitation-form';
import { AppError, notFound } from '@/lib/errors';
import type { CallHooks } from '@/lib/mcp/active-calls';
import { processState } from '@/lib/process-state';
import type { SamplingPolicy } from '@/lib/schemas/mcp';
import type { ChatDataParts } from '@/lib/schemas/chat';
import type { RequestAnswer } from '@/lib/schemas/turn-requests';
import type { SamplingRun } from '@/app/_server/sampling';

/**
 * Requests an MCP server makes while one of a turn's tool calls runs — elicitation (a form or a link
 * for the user) and sampling (the server asks our model) — shown inside that tool call's card and
 * answered by the conversation's owner (POST /api/chat/[id]/requests/[requestId]). They are part of
 * the running turn: written to its stream as data parts (so a reload or another tab shows them from
 * the turn buffer), stored with the answer, and they end with the call (its timeout, Stop, the server
 * withdrawing the request).
 */

type Kind = 'elicitation' | 'sampling';
type Waiting = {
  userId: string;
  conversationId: string;
  kind: Kind;
  fields?: ElicitField[];
  answered: boolean;
  resolve: (answer: RequestAnswer) => void;
};

declare module '@/lib/process-state' {
  interface OwnedSlots {
    turnRequests: Map<string, Waiting>;
  }
}
const waiting = () => processState('turnRequests', () => new Map<string, Waiting>());

export type ElicitationData = ChatDataParts['elicitation'];
export type SamplingData = ChatDataParts['sampling'];
export type RequestPart =
  | { type: 'data-elicitation'; id: string; data: ElicitationData }
  | { type: 'data-sampling'; id: string; data: SamplingData };

export type TurnRequestContext = {
  userId: string;
  conversationId: string;
  server: string;
  toolCallId: string;
  /** Writes (or rewrites, same id) a data part of the running answer. */
  emit: (part: RequestPart) => void;
  samplingPolicy: SamplingPolicy;
  /** Runs an approved sampling request on the conversation's model. */
  runSampling: SamplingRun;
};

/** Waits for the owner's answer to a request, or for the signal (the call ended). */
function awaitAnswer(
  id: string,
  entry: Omit<Waiting, 'resolve' | 'answered'>,
  signal: AbortSignal,
): Promise<RequestAnswer> {
  signal.throwIfAborted();
  return new Promise<RequestAnswer>((resolve, reject) => {
    const onAbort = () => {
      waiting().delete(id);
      reject(signal.reason ?? new Error('The request ended.'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    waiting().set(id, {
      ...entry,
      answered: false,
      resolve: (answer) => {
        signal.removeEventListener('abort', onAbort);
        // Kept a while as answered, so a second answer is told "already answered" (409).
        setTimeout(() => waiting().delete(id), ANSWERED_KEPT_MS).unref();
        resolve(answer);
      },
    });
  });
}

const ANSWERED_KEPT_MS = 5 * 60_000;

const rejected = () => new McpError(-1, 'User rejected sampling request');

/** The hooks one tool call of a turn offers its server (lib/mcp/active-calls). */
export function turnRequestHooks(ctx: TurnRequestContext): CallHooks {
  const owner = { userId: ctx.userId, conversationId: ctx.conversationId };
  const base = { toolCallId: ctx.toolCallId, server: ctx.server };
  const urlRequests = new Map<string, { id: string; data: ElicitationData }>();

  return {
    async elicit(params, signal): Promise<ElicitResult> {
      const id = `req-${randomUUID()}`;
      const emit = (data: ElicitationData) => ctx.emit({ type: 'data-elicitation', id, data });
      const shown: ElicitationData =
        params.mode === 'url'
          ? { ...base, mode: 'url', message: params.message, url: params.url, status: 'pending' }
          : {
              ...base,
              mode: 'form',
              message: params.message,
              schema: params.requestedSchema,
              status: 'pending',
            };
      let fields: ElicitField[] | undefined;
      if (shown.mode === 'form') {
        const form = formFields(params.mode === 'url' ? undefined : params.requestedSchema);
        if ('error' in form) {
          emit({ ...shown, status: 'invalid', error: form.error });
          return { action: 'decline' };
        }
        fields = form.fields;
      } else if (!isWebUrl(shown.url)) {
        emit({ ...shown, status: 'invalid', error: 'The server sent a link that is not a web address.' });
        return { action: 'decline' };
      }
      emit(shown);
      let answer: RequestAnswer;
      try {
        answer = await awaitAnswer(id, { ...owner, kind: 'elicitation', fields }, signal);
      } catch (err) {
        emit({ ...shown, status: 'expired' });
        throw err;
      }
      if (answer.action === 'accept') {
        if (shown.mode === 'url') {
          const data: ElicitationData = { ...shown, status: 'opened' };
          if (params.mode === 'url') urlRequests.set(params.elicitationId, { id, data });
          emit(data);
          return { action: 'accept' };
        }
        emit({ ...shown, status: 'accepted', content: answer.content });
        return { action: 'accept', content: answer.content };
      }
      const action = answer.action === 'decline' ? 'decline' : 'cancel';
      emit({ ...shown, status: action === 'decline' ? 'declined' : 'cancelled' });
      return { action };
    },

    elicitationComplete(elicitationId) {
      const shown = urlRequests.get(elicitationId);
      if (!shown) return;
      urlRequests.delete(elicitationId);
      ctx.emit({ type: 'data-elicitation', id: shown.id, data: { ...shown.data, status: 'completed' } });
    },

    async sample(params, signal): Promise<CreateMessageResult | CreateMessageResultWithTools> {
      if (ctx.samplingPolicy === 'never') throw rejected();
      const id = `req-${randomUUID()}`;
      const emit = (data: SamplingData) => ctx.emit({ type: 'data-sampling', id, data });
      const shown: SamplingData = {
        ...base,
        request: {
          messages: params.messages.map((m) => ({ role: m.role, text: samplingText(m.content) })),
          systemPrompt: params.systemPrompt,
          maxTokens: params.maxTokens,
        },
        status: 'pending',
      };
      let edited: string | undefined;
      if (ctx.samplingPolicy === 'auto') {
        shown.auto = true;
      } else {
        emit(shown);
        let answer: RequestAnswer;
        try {
          answer = await awaitAnswer(id, { ...owner, kind: 'sampling' }, signal);
        } catch (err) {
          emit({ ...shown, status: 'expired' });
          throw err;
        }
        if (answer.action !== 'approve') {
          emit({ ...shown, status: 'denied' });
          throw rejected();
        }
        edited = answer.text;
      }
      emit({ ...shown, status: 'running' });
      try {
        const { result, usage } = await ctx.runSampling(params, edited, signal);
        const text = samplingText(result.content);
        emit({ ...shown, status: 'done', model: result.model, answer: text, usage });
        return result;
      } catch (err) {
        const message = signal.aborted ? 'The call ended.' : err instanceof Error ? err.message : String(err);
        emit({ ...shown, status: 'failed', error: message.slice(0, 500) });
        throw new McpError(ErrorCode.InternalError, `Sampling failed: ${message}`);
      }
    },
  };
}

function isWebUrl(url: string | undefined): boolean {
  try {
    const u = new URL(url ?? '');
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/** A sampling message's content as text for the card (images and audio named, not shown). */
export function samplingText(content: unknown): string {
  const items = Array.isArray(content) ? content : [content];
  return items
    .map((c) => {
      const item = c as { type?: string; text?: string; mimeType?: string; name?: string; content?: unknown };
      if (item.type === 'text') return item.text ?? '';
      if (item.type === 'tool_use') return `[calls tool ${item.name}]`;
      if (item.type === 'tool_result') return `[tool result: ${samplingText(item.content ?? [])}]`;
      return `[${item.type ?? 'content'}${item.mimeType ? ` ${item.mimeType}` : ''}]`;
    })
    .join('\n');
}

/** Whether the request waits (or was answered a moment ago) in this process. */
export function holdsTurnRequest(requestId: string): boolean {
  return waiting().has(requestId);
}

/**
 * The owner's answer to a waiting request. Of two answers to one request (two tabs, a double click)
 * only the first counts: the second is a 409. A request of another user or conversation, or one no
 * longer waiting, is a 404.
 */
export function answerTurnRequest(
  userId: string,
  conversationId: string,
  requestId: string,
  answer: RequestAnswer,
): void {
  const entry = waiting().get(requestId);
  if (!entry || entry.userId !== userId || entry.conversationId !== conversationId)
    throw notFound('This request is not waiting for an answer (it was answered, or its tool call ended).');
  if (entry.answered) throw new AppError('conflict', 'This request was already answered.');
  const fits =
    entry.kind === 'elicitation'
      ? answer.action === 'accept' || answer.action === 'decline' || answer.action === 'cancel'
      : answer.action === 'approve' || answer.action === 'deny';
  if (!fits) throw new AppError('bad_request', `"${answer.action}" does not answer a ${entry.kind} request.`);
  if (answer.action === 'accept' && entry.fields) {
    const checked = checkAnswer(entry.fields, answer.content ?? {});
    if ('errors' in checked)
      throw new AppError('bad_request', 'Some fields need attention.', prefixed(checked.errors));
    answer = { action: 'accept', content: checked.content };
  }
  entry.answered = true;
  entry.resolve(answer);
}

const prefixed = (errors: Record<string, string>) =>
  Object.fromEntries(Object.entries(errors).map(([k, v]) => [`content.${k}`, v]));

import 'server-only';
import type {
  CreateMessageRequest,
  CreateMessageResult,
  CreateMessageResultWithTools,
} from '@modelcontextprotocol/sdk/types.js';
import { generateText, jsonSchema, type LanguageModel, type ModelMessage, type ToolSet, tool } from 'ai';
import type { Principal } from '@/lib/access';
import { listModels, resolveModel } from '@/lib/providers';
import { modelSources } from '@/app/_server/model-sources';
import { takeChatRequest } from '@/app/_server/turn-admission';
import { samplingText } from '@/app/_server/turn-requests';

/** The most a server's sampling request may ask our model to write, whatever its maxTokens says. */
const MAX_SAMPLING_TOKENS = 4096;

export type SamplingRun = (
  params: CreateMessageRequest['params'],
  editedText: string | undefined,
  signal: AbortSignal,
) => Promise<{
  result: CreateMessageResult | CreateMessageResultWithTools;
  usage: { inputTokens?: number; outputTokens?: number };
}>;

/**
 * The model a sampling request runs on: the conversation's own, unless the server's model hints name
 * another model the user may use (a hint matches a model id containing it, in the hints' order).
 * Never a model the user may not use.
 */
export async function samplingModel(
  user: Principal,
  conversationModel: { id: string; model: LanguageModel },
  hints: Array<{ name?: string }> | undefined,
): Promise<{ id: string; model: LanguageModel }> {
  const sources = await modelSources();
  const usable = listModels(sources, user);
  for (const hint of hints ?? []) {
    const name = hint.name?.toLowerCase();
    if (!name) continue;
    const match = usable.find((m) => m.id.toLowerCase().includes(name));
    if (!match) continue;
    if (match.id === conversationModel.id) return conversationModel;
    const resolved = resolveModel(sources, match.id, user);
    if (resolved) return { id: resolved.info.id, model: resolved.model };
  }
  return conversationModel;
}

type Block = { type: string; [key: string]: unknown };
const blocks = (content: unknown): Block[] => (Array.isArray(content) ? content : [content]) as Block[];

/**
 * The request's messages for the model. A sampling loop with tools (MCP 2025-11-25) carries the
 * model's earlier `tool_use` blocks and the server's `tool_result` blocks: they become tool calls and
 * tool results, so the model sees the exchange as it happened.
 */
function modelMessages(
  params: CreateMessageRequest['params'],
  editedText: string | undefined,
): ModelMessage[] {
  const names = new Map<string, string>();
  const out: ModelMessage[] = [];
  const lastUser = params.messages.findLastIndex((m) => m.role === 'user');
  params.messages.forEach((m, i) => {
    const items = blocks(m.content);
    const text =
      i === lastUser && editedText !== undefined
        ? editedText
        : samplingText(items.filter((b) => b.type !== 'tool_use' && b.type !== 'tool_result'));
    if (m.role === 'assistant') {
      const calls = items.filter((b) => b.type === 'tool_use');
      for (const c of calls) names.set(String(c.id), String(c.name));
      out.push({
        role: 'assistant',
        content: [
          ...(text ? [{ type: 'text' as const, text }] : []),
          ...calls.map((c) => ({
            type: 'tool-call' as const,
            toolCallId: String(c.id),
            toolName: String(c.name),
            input: c.input,
          })),
        ],
      });
      return;
    }
    const results = items.filter((b) => b.type === 'tool_result');
    if (results.length)
      out.push({
        role: 'tool',
        content: results.map((r) => ({
          type: 'tool-result' as const,
          toolCallId: String(r.toolUseId),
          toolName: names.get(String(r.toolUseId)) ?? 'tool',
          output: {
            type: r.isError ? ('error-text' as const) : ('text' as const),
            value: samplingText(r.content),
          },
        })),
      });
    if (text || !results.length) out.push({ role: 'user', content: text });
  });
  return out;
}

/** The server's tools, offered to the model without a way to run them: a call goes back to the server. */
function offeredTools(params: CreateMessageRequest['params']): ToolSet | undefined {
  if (!params.tools?.length) return undefined;
  return Object.fromEntries(
    params.tools.map((t) => [
      t.name,
      tool({
        description: t.description ?? '',
        inputSchema: jsonSchema(t.inputSchema as Parameters<typeof jsonSchema>[0]),
      }),
    ]),
  );
}

/**
 * Runs an approved sampling request for a user: it counts as one of their chat requests (the same
 * per-minute limit), uses a model they may use, and is capped in length. Images and audio in the
 * request reach the model as a named placeholder, not as media.
 */
export function samplingRunner(
  user: Principal & { id: string },
  conversationModel: { id: string; model: LanguageModel },
  perMinute: number,
): SamplingRun {
  return async (params, editedText, signal) => {
    await takeChatRequest(user.id, perMinute);
    const chosen = await samplingModel(user, conversationModel, params.modelPreferences?.hints);
    const tools = offeredTools(params);
    const out = await generateText({
      model: chosen.model,
      instructions: params.systemPrompt,
      messages: modelMessages(params, editedText),
      maxOutputTokens: Math.min(params.maxTokens, MAX_SAMPLING_TOKENS),
      temperature: params.temperature,
      stopSequences: params.stopSequences,
      ...(tools && { tools, toolChoice: params.toolChoice?.mode ?? 'auto' }),
      abortSignal: signal,
      maxRetries: 0,
    });
    const usage = { inputTokens: out.usage.inputTokens, outputTokens: out.usage.outputTokens };
    if (out.toolCalls.length)
      return {
        result: {
          role: 'assistant',
          content: [
            ...(out.text ? [{ type: 'text' as const, text: out.text }] : []),
            ...out.toolCalls.map((c) => ({
              type: 'tool_use' as const,
              id: c.toolCallId,
              name: c.toolName,
              input: (c.input ?? {}) as Record<string, unknown>,
            })),
          ],
          model: chosen.id,
          stopReason: 'toolUse',
        },
        usage,
      };
    return {
      result: {
        role: 'assistant',
        content: { type: 'text', text: out.text },
        model: chosen.id,
        stopReason: out.finishReason === 'length' ? 'maxTokens' : 'endTurn',
      },
      usage,
    };
  };
}

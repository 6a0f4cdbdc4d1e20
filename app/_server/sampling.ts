import 'server-only';
import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import { generateText, type LanguageModel, type ModelMessage } from 'ai';
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
) => Promise<{ result: CreateMessageResult; usage: { inputTokens?: number; outputTokens?: number } }>;

/**
 * The model a sampling request runs on: the conversation's own, unless the server's model hints name
 * another model the user may use (a hint matches a model id containing it, in the hints' order).
 * Never a model the user may not use.
 */
export function samplingModel(
  user: Principal,
  conversationModel: { id: string; model: LanguageModel },
  hints: Array<{ name?: string }> | undefined,
): { id: string; model: LanguageModel } {
  const sources = modelSources();
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

function modelMessages(
  params: CreateMessageRequest['params'],
  editedText: string | undefined,
): ModelMessage[] {
  const messages: ModelMessage[] = params.messages.map((m) => ({
    role: m.role,
    content: samplingText(m.content),
  }));
  if (editedText !== undefined) {
    const last = messages.findLastIndex((m) => m.role === 'user');
    if (last >= 0) messages[last] = { role: 'user', content: editedText };
  }
  return messages;
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
    takeChatRequest(user.id, perMinute);
    const chosen = samplingModel(user, conversationModel, params.modelPreferences?.hints);
    const out = await generateText({
      model: chosen.model,
      instructions: params.systemPrompt,
      messages: modelMessages(params, editedText),
      maxOutputTokens: Math.min(params.maxTokens, MAX_SAMPLING_TOKENS),
      temperature: params.temperature,
      stopSequences: params.stopSequences,
      abortSignal: signal,
      maxRetries: 0,
    });
    return {
      result: {
        role: 'assistant',
        content: { type: 'text', text: out.text },
        model: chosen.id,
        stopReason: out.finishReason === 'length' ? 'maxTokens' : 'endTurn',
      },
      usage: { inputTokens: out.usage.inputTokens, outputTokens: out.usage.outputTokens },
    };
  };
}

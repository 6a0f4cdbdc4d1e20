import 'server-only';
import { createOpenAI } from '@ai-sdk/openai';
import { type LanguageModel, wrapLanguageModel } from 'ai';
import { providerFetch } from '@/lib/chat/provider-fetch';
import { promptToolsMiddleware } from '@/lib/chat/prompt-tools/middleware';
import { isAllowed, type Principal } from '@/lib/access';
import type { Env } from '@/lib/env';
import { AppError } from '@/lib/errors';
import type { OllamaProbe } from '@/lib/ollama';
import type { ModelPrice } from '@/lib/usage';
import { processState } from '@/lib/process-state';

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export type ToolCalling = 'native' | 'prompt';
export type ModelInfo = { id: string; label: string; provider: string; toolCalling: ToolCalling };

/** An OpenAI-compatible endpoint the admin added (its key already decrypted). */
export type ProviderSpec = {
  id: string;
  name: string;
  baseURL: string;
  apiKey: string | null;
  models: string[];
  toolCalling: ToolCalling;
  version: string;
  allow: string[];
  modelAllow: Record<string, string[]>;
  /** Models an admin marked as unable to take images (vision is assumed otherwise). */
  noVision: string[];
  /** Per model, USD per 1M input / output tokens (lib/usage.ts); a model without one shows no cost. */
  prices?: Record<string, ModelPrice>;
};

export type ModelSources = { env: Env; providers: ProviderSpec[]; ollama: OllamaProbe };

/** The env provider is configured when it has a key, or points at a server of the admin's choosing (Ollama, vLLM…). */
export function envProviderConfigured(env: Env): boolean {
  return Boolean(env.OPENAI_API_KEY || env.OPENAI_BASE_URL);
}

type Target = {
  info: ModelInfo;
  baseURL: string;
  apiKey: string | null;
  model: string;
  cacheKey: string;
  /** Who may use it (the env model and Ollama's are everyone's). */
  allow: readonly string[];
  /** May images (from tool results) be sent to it. */
  vision: boolean;
  price?: ModelPrice;
};
const EVERYONE = ['*'] as const;

/** Every model a user may pick. Ids: the env model as is, `<provider>/<model>`, and `ollama/<model>`. */
function targets({ env, providers, ollama }: ModelSources): Target[] {
  const out: Target[] = [];
  if (envProviderConfigured(env)) {
    out.push({
      info: { id: env.CHAT_MODEL, label: env.CHAT_MODEL, provider: 'env', toolCalling: 'native' },
      baseURL: env.OPENAI_BASE_URL ?? DEFAULT_BASE_URL,
      apiKey: env.OPENAI_API_KEY ?? null,
      model: env.CHAT_MODEL,
      cacheKey: 'env',
      allow: EVERYONE,
      vision: true,
    });
  }
  for (const p of providers) {
    for (const model of p.models) {
      const id = `${p.name}/${model}`;
      out.push({
        info: { id, label: `${model} (${p.name})`, provider: p.name, toolCalling: p.toolCalling },
        baseURL: p.baseURL,
        apiKey: p.apiKey,
        model,
        cacheKey: `${p.id}:${p.version}`,
        allow: p.modelAllow[model] ?? p.allow,
        vision: !p.noVision.includes(model),
        price: p.prices?.[model],
      });
    }
  }
  if (ollama.reachable) {
    for (const model of ollama.models) {
      const id = `ollama/${model}`;
      if (out.some((t) => t.info.id === id)) continue;
      out.push({
        info: { id, label: `${model} (Ollama)`, provider: 'ollama', toolCalling: 'native' },
        baseURL: `${ollama.baseURL}/v1`,
        apiKey: null,
        model,
        cacheKey: 'ollama',
        allow: EVERYONE,
        vision: true,
      });
    }
  }
  return out;
}

/** The models this user may pick (an admin may limit a provider's models to roles or users). */
export function listModels(sources: ModelSources, who: Principal): ModelInfo[] {
  return targets(sources)
    .filter((t) => isAllowed(t.allow, who))
    .map((t) => t.info);
}

/** An OpenAI-compatible client speaking Chat Completions (never the Responses API), cached per provider version. */
export function chatModel(
  baseURL: string,
  apiKey: string | null,
  model: string,
  cacheKey = `${baseURL}|${apiKey ?? ''}`,
): LanguageModel {
  const clients = processState('providerClients', () => new Map());
  let client = clients.get(cacheKey);
  if (!client) {
    client = createOpenAI({
      baseURL,
      apiKey: apiKey ?? 'not-needed',
      name: 'openai-compatible',
      // Streamed deltas are merged on the socket's reads, before the SDK parses them (provider-fetch.ts).
      fetch: providerFetch,
    });
    clients.set(cacheKey, client);
  }
  return client.chat(model);
}

/**
 * The model a request names (or the default: the first the user may use); 400 for an unknown id and
 * for one the user may not use (also a conversation's stored model that an admin has since limited).
 * A model set to tool-calling mode "prompt" gets no `tools` field: a middleware describes the tools in
 * the system prompt and turns `<tool_use>` blocks in its answer back into tool calls.
 */
export function resolveModel(
  sources: ModelSources,
  requested: string | undefined,
  who: Principal,
): { info: ModelInfo; model: LanguageModel; vision: boolean; price?: ModelPrice } | null {
  const all = targets(sources);
  if (!all.length) return null;
  const usable = all.filter((t) => isAllowed(t.allow, who));
  if (!usable.length)
    throw new AppError('forbidden', 'No model is available to you. Ask an admin for access to one.');
  // A model the user may not use is refused as an unknown one is: the answer does not tell a prober
  // which restricted model ids exist.
  const target = requested ? usable.find((t) => t.info.id === requested) : usable[0];
  if (!target)
    throw new AppError(
      'bad_request',
      `Model "${requested}" is not available (it may have been removed or limited). Pick another model.`,
      { model: 'is not one of the models available to you' },
    );
  const model = chatModel(target.baseURL, target.apiKey, target.model, target.cacheKey) as Parameters<
    typeof wrapLanguageModel
  >[0]['model'];
  return {
    info: target.info,
    model:
      target.info.toolCalling === 'prompt'
        ? wrapLanguageModel({ model, middleware: promptToolsMiddleware() })
        : model,
    vision: target.vision,
    price: target.price,
  };
}

export { NO_PROVIDER_MESSAGE } from './no-provider';

import 'server-only';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModel } from 'ai';
import type { Env } from '@/lib/env';
import { AppError } from '@/lib/errors';

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export type ModelInfo = { id: string; label: string; provider: string; toolCalling: 'native' | 'prompt' };

/** The env provider is configured when it has a key, or points at a server of the admin's choosing (Ollama, vLLM…). */
export function envProviderConfigured(env: Env): boolean {
  return Boolean(env.OPENAI_API_KEY || env.OPENAI_BASE_URL);
}

export function listModels(env: Env): ModelInfo[] {
  if (!envProviderConfigured(env)) return [];
  return [{ id: env.CHAT_MODEL, label: env.CHAT_MODEL, provider: 'env', toolCalling: 'native' }];
}

const g = globalThis as unknown as { __envProvider?: ReturnType<typeof createOpenAI> };

/**
 * A Chat Completions model (never the Responses API, so every OpenAI-compatible server works).
 * Throws a 400 for a model the user may not pick.
 */
export function resolveModel(env: Env, requested: string | undefined): { id: string; model: LanguageModel } {
  const id = requested ?? env.CHAT_MODEL;
  if (!listModels(env).some((m) => m.id === id)) {
    throw new AppError('bad_request', `Unknown model "${id}".`, { model: 'is not one of the available models' });
  }
  g.__envProvider ??= createOpenAI({
    baseURL: env.OPENAI_BASE_URL ?? DEFAULT_BASE_URL,
    apiKey: env.OPENAI_API_KEY ?? 'not-needed',
    name: 'env',
  });
  return { id, model: g.__envProvider.chat(id) };
}

export const NO_PROVIDER_MESSAGE =
  'No model provider is configured. Set OPENAI_API_KEY (and OPENAI_BASE_URL for DeepSeek, Ollama, vLLM or any other OpenAI-compatible server) and restart the app.';

import 'server-only';
import { getDb } from '@/db/client';
import { listProviders, type ProviderRow } from '@/db/queries/providers';
import { getEnv } from '@/lib/env';
import { ollamaStatus } from '@/lib/ollama';
import type { ModelSources, ProviderSpec } from '@/lib/providers';
import { openSecret } from '@/lib/secret-box';

export function providerSpec(row: ProviderRow): ProviderSpec {
  const apiKey = row.apiKeyEncrypted ? openSecret(row.apiKeyEncrypted, getEnv().AUTH_SECRET) : null;
  return { id: row.id, name: row.name, baseURL: row.baseURL, apiKey, models: row.models, toolCalling: row.toolCalling, version: String(row.updatedAt.getTime()) };
}

/** Where models come from: the environment, the admin's providers (keys decrypted here), a local Ollama. */
export function modelSources(): ModelSources {
  const env = getEnv();
  return { env, providers: listProviders(getDb()).map(providerSpec), ollama: ollamaStatus(env.OLLAMA_BASE_URL) };
}

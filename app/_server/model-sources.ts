import 'server-only';
import { getDb } from '@/db/client';
import { listProviders, type ProviderRecord } from '@/db/queries/providers';
import { getEnv } from '@/lib/env';
import { ollamaStatus } from '@/lib/ollama';
import { dropProcessState, processState } from '@/lib/process-state';
import type { ModelSources, ProviderSpec } from '@/lib/providers';
import { publishInvalidation } from '@/lib/shared/invalidation';

export function providerSpec(row: ProviderRecord): ProviderSpec {
  return {
    id: row.id,
    name: row.name,
    baseURL: row.baseURL,
    apiKey: row.apiKey,
    models: row.models,
    toolCalling: row.toolCalling,
    version: String(row.updatedAt.getTime()),
    allow: row.allow,
    modelAllow: row.modelAllow,
    noVision: row.noVision,
    prices: row.prices,
  };
}

/** Drop the cached provider list (after an admin adds, edits or deletes a provider). */
export function invalidateProviders(): void {
  dropProcessState('providerSpecs');
  publishInvalidation('providers');
}

/**
 * Where models come from: the environment, the admin's providers (read and decrypted once, then cached;
 * one whose stored key cannot be decrypted is left out until the admin enters it again), a local Ollama.
 */
export async function modelSources(): Promise<ModelSources> {
  const env = getEnv();
  const providers = await processState('providerSpecs', () => {
    const read = listProviders(getDb()).then((rows) =>
      rows.filter((row) => !row.apiKeyUnreadable).map(providerSpec),
    );
    // A failed read is not kept: the next caller reads again.
    read.catch(() => dropProcessState('providerSpecs'));
    return read;
  });
  return { env, providers, ollama: ollamaStatus(env.OLLAMA_BASE_URL) };
}

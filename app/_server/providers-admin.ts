import 'server-only';
import { generateText } from 'ai';
import * as z from '@/lib/zod';
import { getDb } from '@/db/client';
import {
  createProvider,
  getProvider,
  getProviderIdByName,
  listProviders,
  type ProviderRecord,
  updateProvider,
} from '@/db/queries/providers';
import { unreadableMessage } from '@/db/sealing';
import { providerSpec } from '@/app/_server/model-sources';
import { getEnv } from '@/lib/env';
import { AppError, changedSince, notFound } from '@/lib/errors';
import { ollamaStatus } from '@/lib/ollama';
import { chatModel, DEFAULT_BASE_URL, envProviderConfigured } from '@/lib/providers';
import type { ProviderCreateSchema, ProviderPatchSchema } from '@/lib/schemas/providers';

const UNREADABLE_KEY = unreadableMessage(['API key']);

/** A provider as the admin API shows it: the key is write-only; `error` when the stored key cannot be decrypted. */
export function presentProvider(row: ProviderRecord) {
  return {
    id: row.id,
    name: row.name,
    baseURL: row.baseURL,
    hasApiKey: Boolean(row.apiKey) || row.apiKeyUnreadable,
    models: row.models,
    toolCalling: row.toolCalling,
    allow: row.allow,
    modelAllow: row.modelAllow,
    noVision: row.noVision,
    prices: row.prices,
    createdAt: row.createdAt.toISOString(),
    /** The version: the edit form sends it back as If-Match. */
    updatedAt: row.updatedAt.toISOString(),
    error: row.apiKeyUnreadable ? UNREADABLE_KEY : null,
  };
}

/** A stored provider, refused when its key cannot be decrypted (it would be sent without one). */
async function readableProvider(id: string): Promise<ProviderRecord> {
  const row = await getProvider(getDb(), id);
  if (!row) throw notFound('Provider not found.');
  if (row.apiKeyUnreadable)
    throw new AppError('bad_request', `Provider "${row.name}": ${UNREADABLE_KEY}`, {
      apiKey: 'cannot be decrypted',
    });
  return row;
}

export async function providersOverview() {
  const env = getEnv();
  return {
    items: (await listProviders(getDb())).map(presentProvider),
    nextCursor: null,
    env: {
      baseURL: env.OPENAI_BASE_URL ?? DEFAULT_BASE_URL,
      model: env.CHAT_MODEL,
      configured: envProviderConfigured(env),
      hasApiKey: Boolean(env.OPENAI_API_KEY),
    },
    ollama: ollamaStatus(env.OLLAMA_BASE_URL),
  };
}

export async function addProvider(input: z.infer<typeof ProviderCreateSchema>) {
  const row = await createProvider(getDb(), {
    name: input.name,
    baseURL: input.baseURL,
    apiKey: input.apiKey || null,
    models: [...new Set(input.models)],
    toolCalling: input.toolCalling,
    allow: input.allow,
    modelAllow: input.modelAllow,
    noVision: [...new Set(input.noVision)],
    prices: input.prices,
  });
  if (!row) throw nameTaken(input.name);
  return presentProvider(row);
}

const nameTaken = (name: string) =>
  new AppError('conflict', `A provider named "${name}" exists.`, { name: 'is already taken' });

/**
 * PATCH: the fields given. `ifMatch` (the edit form's If-Match: the updatedAt it was opened at) makes it
 * a 409 when the provider was written since, so a stale form cannot overwrite another admin's change.
 */
export async function editProvider(
  id: string,
  patch: z.infer<typeof ProviderPatchSchema>,
  ifMatch: Date | null = null,
) {
  const db = getDb();
  const stored = await getProvider(db, id);
  if (!stored) throw notFound('Provider not found.');
  // Compared to the millisecond, as the view shows it (toISOString).
  if (ifMatch && ifMatch.getTime() !== stored.updatedAt.getTime()) throw changedSince('provider');
  const { apiKey, models, ...rest } = patch;
  const values = {
    ...rest,
    ...(models ? { models: [...new Set(models)] } : {}),
    ...(apiKey === null ? { apiKey: null } : apiKey ? { apiKey } : {}),
  };
  const row = await updateProvider(db, id, values, stored.updatedAt, { ifUnchanged: ifMatch !== null }).catch(
    async (err: unknown) => {
      // A rename to a name another provider has (or took a moment ago, another admin's save): the 409
      // adding one gets, not the unique index's error.
      const { name } = values;
      const holder = name === undefined ? null : await getProviderIdByName(db, name);
      throw name !== undefined && holder !== null && holder !== id ? nameTaken(name) : err;
    },
  );
  // A write between the read above and this one: the form's version is no longer the stored one.
  if (!row)
    throw ifMatch && (await getProvider(db, id)) ? changedSince('provider') : notFound('Provider not found.');
  return presentProvider(row);
}

const ModelsResponseSchema = z.object({ data: z.array(z.object({ id: z.string() }).loose()) }).loose();

/** GET {baseURL}/models, as the OpenAI API lists them. */
export async function fetchModels(
  query: { providerId: string } | { baseURL: string; apiKey?: string },
): Promise<{ models: string[] }> {
  let baseURL: string;
  let apiKey: string | null | undefined;
  if ('providerId' in query) {
    ({ baseURL, apiKey } = providerSpec(await readableProvider(query.providerId)));
  } else {
    ({ baseURL, apiKey } = query);
  }
  let res: Response;
  try {
    res = await fetch(`${baseURL}/models`, {
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      signal: AbortSignal.timeout(10_000),
      redirect: 'error',
    });
  } catch (err) {
    throw new AppError(
      'bad_request',
      `Could not reach ${baseURL}/models: ${err instanceof Error ? err.message : String(err)}`,
      { baseURL: 'is not reachable' },
    );
  }
  if (!res.ok)
    throw new AppError('bad_request', `${baseURL}/models answered HTTP ${res.status}.`, {
      baseURL: `answered HTTP ${res.status}`,
    });
  const parsed = ModelsResponseSchema.safeParse(await res.json().catch(() => null));
  if (!parsed.success)
    throw new AppError('bad_request', `${baseURL}/models did not return an OpenAI model list.`);
  return { models: parsed.data.data.map((m) => m.id).sort() };
}

/** "Test": a one-word prompt; latency or the error. `id` may be "env". */
export async function testProvider(id: string, requested?: string) {
  const env = getEnv();
  let target: { baseURL: string; apiKey: string | null; model: string | undefined };
  if (id === 'env') {
    target = {
      baseURL: env.OPENAI_BASE_URL ?? DEFAULT_BASE_URL,
      apiKey: env.OPENAI_API_KEY ?? null,
      model: requested ?? env.CHAT_MODEL,
    };
  } else {
    const row = await getProvider(getDb(), id);
    if (!row) throw notFound('Provider not found.');
    if (row.apiKeyUnreadable)
      return { ok: false, latencyMs: 0, model: requested ?? row.models[0] ?? null, error: UNREADABLE_KEY };
    const spec = providerSpec(row);
    target = { baseURL: spec.baseURL, apiKey: spec.apiKey, model: requested ?? spec.models[0] };
  }
  if (!target.model)
    return { ok: false, latencyMs: 0, model: null, error: 'This provider has no models yet.' };
  const started = performance.now();
  try {
    const { text } = await generateText({
      model: chatModel(target.baseURL, target.apiKey, target.model),
      prompt: 'Reply with one word: ok',
      maxOutputTokens: 16,
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(30_000),
    });
    return {
      ok: true,
      latencyMs: Math.round(performance.now() - started),
      model: target.model,
      reply: text.slice(0, 200),
    };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      ok: false,
      latencyMs: Math.round(performance.now() - started),
      model: target.model,
      error: message.slice(0, 500),
    };
  }
}

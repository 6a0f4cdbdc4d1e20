import 'server-only';
import { z } from 'zod';

export type OllamaProbe = { baseURL: string; reachable: boolean; models: string[]; checkedAt: number };

const TagsSchema = z.object({ models: z.array(z.object({ name: z.string() }).loose()) }).loose();
const g = globalThis as unknown as { __ollama?: OllamaProbe; __ollamaProbing?: Promise<OllamaProbe> };

/** Asks a local Ollama for its models (GET /api/tags); unreachable is a normal answer, not an error. */
async function probe(baseURL: string): Promise<OllamaProbe> {
  const root = baseURL.replace(/\/+$/, '').replace(/\/v1$/, '');
  try {
    const res = await fetch(`${root}/api/tags`, { signal: AbortSignal.timeout(1500), redirect: 'error' });
    const parsed = TagsSchema.safeParse(res.ok ? await res.json() : null);
    if (!parsed.success) return { baseURL: root, reachable: false, models: [], checkedAt: Date.now() };
    return {
      baseURL: root,
      reachable: true,
      models: parsed.data.models.map((m) => m.name),
      checkedAt: Date.now(),
    };
  } catch {
    return { baseURL: root, reachable: false, models: [], checkedAt: Date.now() };
  }
}

/** The last probe result; probes again in the background when older than a minute. */
export function ollamaStatus(baseURL: string): OllamaProbe {
  const last = g.__ollama;
  if (!last || Date.now() - last.checkedAt > 60_000) void refreshOllama(baseURL);
  return last ?? { baseURL, reachable: false, models: [], checkedAt: 0 };
}

export function refreshOllama(baseURL: string): Promise<OllamaProbe> {
  g.__ollamaProbing ??= probe(baseURL)
    .then((result) => {
      g.__ollama = result;
      return result;
    })
    .finally(() => {
      g.__ollamaProbing = undefined;
    });
  return g.__ollamaProbing;
}

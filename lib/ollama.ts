import 'server-only';
import * as z from '@/lib/zod';
import { processState } from '@/lib/process-state';

export type OllamaProbe = { baseURL: string; reachable: boolean; models: string[]; checkedAt: number };

const TagsSchema = z.object({ models: z.array(z.object({ name: z.string() }).loose()) }).loose();
/** The last probe and the one in flight, one per process. */
const probes = () => processState('ollama', () => ({}));

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
  const last = probes().last;
  if (!last || Date.now() - last.checkedAt > 60_000) void refreshOllama(baseURL);
  return last ?? { baseURL, reachable: false, models: [], checkedAt: 0 };
}

export function refreshOllama(baseURL: string): Promise<OllamaProbe> {
  const state = probes();
  state.probing ??= probe(baseURL)
    .then((result) => {
      state.last = result;
      return result;
    })
    .finally(() => {
      state.probing = undefined;
    });
  return state.probing;
}

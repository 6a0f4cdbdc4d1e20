import { answerError, fetchOrUnreachable } from '@/app/_components/request-errors';

/** Client calls for MCP prompts and resource templates: render a prompt into text for the message box, complete an argument. */

async function postJson<T>(url: string, body: unknown, signal?: AbortSignal): Promise<T> {
  const res = await fetchOrUnreachable(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
  if (!res.ok) throw await answerError(res);
  return (await res.json()) as T;
}

/** POST /api/prompts/get → the rendered messages' text, joined by blank lines. */
export async function renderPromptText(
  server: string,
  name: string,
  args: Record<string, string>,
): Promise<string> {
  const result = await postJson<{ messages: Array<{ role: string; text: string }> }>('/api/prompts/get', {
    server,
    name,
    arguments: args,
  });
  return result.messages.map((m) => m.text).join('\n\n');
}

/** POST /api/prompts/complete → suggested values (none when the server has no completions). */
export async function completeArgument(
  server: string,
  prompt: string,
  argument: string,
  value: string,
  signal?: AbortSignal,
): Promise<string[]> {
  const result = await postJson<{ values: string[] }>(
    '/api/prompts/complete',
    { server, prompt, argument, value },
    signal,
  );
  return result.values;
}

/** POST /api/resources/complete → suggested values for a template variable, given the others. */
export async function completeTemplateVariable(
  server: string,
  uriTemplate: string,
  argument: string,
  value: string,
  context: Record<string, string>,
  signal?: AbortSignal,
): Promise<string[]> {
  const result = await postJson<{ values: string[] }>(
    '/api/resources/complete',
    { server, uriTemplate, argument, value, context },
    signal,
  );
  return result.values;
}

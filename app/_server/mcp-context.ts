import 'server-only';
import { AppError } from '@/lib/errors';
import { getPool } from '@/lib/mcp/pool';
import { MAX_RESULT_BYTES } from '@/lib/chat/tools';

const enabledConnections = () =>
  getPool()
    .statuses()
    .filter((s) => s.status !== 'disabled')
    .map((s) => getPool().get(s.name))
    .filter((c) => c !== undefined);

function connection(server: string) {
  const conn = getPool().get(server);
  if (!conn?.config.enabled) throw new AppError('not_found', `Server "${server}" is not available.`);
  return conn;
}

/**
 * A failed request to a server as the user's answer: the server's own refusal (unknown prompt, bad
 * arguments) is a 400 with its reason; anything else a 503 with the status and a reference, never the detail.
 */
async function asUser<T>(server: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    if (err instanceof AppError) throw err;
    const failure = getPool().publicFailure(server, err);
    throw new AppError(failure.kind === 'protocol' ? 'bad_request' : 'unavailable', failure.message);
  }
}

/** Prompts of every enabled server, for the `/` menu; a failing server just contributes none. */
export async function listAllPrompts() {
  const lists = await Promise.all(
    enabledConnections().map(async (c) =>
      (await c.listPrompts().catch(() => [])).map((p) => ({ server: c.name, ...p })),
    ),
  );
  return { items: lists.flat() };
}

/** prompts/get, flattened to the text of each message (what the composer inserts). */
export async function renderPrompt(server: string, name: string, args: Record<string, string>) {
  const result = await asUser(server, () => connection(server).getPrompt(name, args));
  return {
    description: result.description ?? null,
    messages: result.messages.map((m) => ({
      role: m.role,
      text:
        m.content.type === 'text'
          ? m.content.text
          : m.content.type === 'resource' && 'text' in m.content.resource
            ? m.content.resource.text
            : `[${m.content.type}]`,
    })),
  };
}

export async function completePrompt(server: string, prompt: string, argument: string, value: string) {
  return {
    values: await connection(server)
      .completePromptArgument(prompt, argument, value)
      .catch(() => []),
  };
}

/** Resources and templates of every enabled server, for the `@` picker. */
export async function listAllResources() {
  const lists = await Promise.all(
    enabledConnections().map(async (c) =>
      (await c.listResources().catch(() => [])).map((r) => ({
        server: c.name,
        ...r,
        template: r.uri.includes('{'),
      })),
    ),
  );
  return { items: lists.flat() };
}

/** resources/read for an attachment: text contents joined and capped like a tool result. */
export async function readResourceForMessage(server: string, uri: string) {
  const result = await asUser(server, () => connection(server).readResource(uri));
  const text = result.contents
    .map((c) =>
      'text' in c ? c.text : `[binary ${c.mimeType ?? 'data'}, ${Math.round((c.blob.length * 3) / 4)} bytes]`,
    )
    .join('\n');
  const capped = text.length > MAX_RESULT_BYTES ? `${text.slice(0, MAX_RESULT_BYTES)}\n[truncated]` : text;
  const first = result.contents[0];
  return { server, uri, mimeType: first?.mimeType, text: capped };
}

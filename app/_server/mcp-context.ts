import 'server-only';
import type { Principal } from '@/lib/access';
import { AppError } from '@/lib/errors';
import type { McpConnection } from '@/lib/mcp/connection';
import {
  completePromptArgument,
  completeTemplateArgument,
  getPrompt,
  listPrompts,
  listResources,
  listResourceTemplates,
  readResource,
} from '@/lib/mcp/context-requests';
import { getPool } from '@/lib/mcp/pool';
import { checkPromptRequest, promptRefusal } from '@/lib/mcp/prompt-errors';
import { parseUriTemplate } from '@/lib/uri-template';
import { MAX_RESULT_BYTES } from '@/lib/chat/tools';

/** The user's connections to every server they may use (one that cannot start for them is left out). */
function usableConnections(user: Principal) {
  const pool = getPool().forUser(user);
  return pool.servers().flatMap((c) => {
    try {
      const conn = pool.connection(c.name);
      return conn ? [conn] : [];
    } catch {
      return [];
    }
  });
}

/** The user's connection to a server; one they may not use does not exist for them (404). */
function connection(user: Principal, server: string) {
  let conn: McpConnection | undefined;
  try {
    conn = getPool().forUser(user).connection(server);
  } catch (err) {
    // No room for another per-user connection: the reason is the user's to read.
    throw new AppError('unavailable', err instanceof Error ? err.message : String(err));
  }
  if (!conn) throw new AppError('not_found', `Server "${server}" is not available.`);
  return conn;
}

/**
 * A failed request to a server as the user's answer: the server's own refusal (unknown prompt, bad
 * arguments) is a 4xx with its reason (`refusal` may say which); anything else a 503 with the status and
 * a reference, never the detail.
 */
async function asUser<T>(
  user: Principal,
  server: string,
  request: () => Promise<T>,
  refusal?: (err: unknown) => AppError | undefined,
): Promise<T> {
  try {
    return await request();
  } catch (err) {
    if (err instanceof AppError) throw err;
    const refused = refusal?.(err);
    if (refused) throw refused;
    const failure = getPool().forUser(user).publicFailure(server, err);
    throw new AppError(failure.kind === 'protocol' ? 'bad_request' : 'unavailable', failure.message);
  }
}

/** Prompts of every enabled server, for the `/` menu; a failing server just contributes none. */
export async function listAllPrompts(user: Principal) {
  const lists = await Promise.all(
    usableConnections(user).map(async (c) =>
      (await c.request(listPrompts).catch(() => [])).map((p) => ({ server: c.name, ...p })),
    ),
  );
  return { items: lists.flat() };
}

/** prompts/get, flattened to the text of each message (what the composer inserts). */
export async function renderPrompt(
  user: Principal,
  server: string,
  name: string,
  args: Record<string, string>,
) {
  const conn = connection(user, server);
  // Checked against the server's own list first: unknown prompt 404, missing argument 400 naming it.
  const prompt = (await asUser(user, server, () => conn.request(listPrompts))).find((p) => p.name === name);
  checkPromptRequest(server, prompt, name, args);
  const result = await asUser(
    user,
    server,
    () => conn.request(getPrompt(name, args)),
    (err) => promptRefusal(err, server, prompt ?? { name }),
  );
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

export async function completePrompt(
  user: Principal,
  server: string,
  prompt: string,
  argument: string,
  value: string,
) {
  return {
    values: await connection(user, server)
      .request(completePromptArgument(prompt, argument, value))
      .catch(() => []),
  };
}

/**
 * Resources and resource templates of every enabled server, for the `@` picker. A template comes with
 * its variables, or why it cannot be filled in here (beyond RFC 6570 level 1).
 */
export async function listAllResources(user: Principal) {
  const lists = await Promise.all(
    usableConnections(user).map(async (c) => {
      const [resources, templates] = await Promise.all([
        c.request(listResources).catch(() => []),
        c.request(listResourceTemplates).catch(() => []),
      ]);
      return [
        ...resources.map((r) => ({ server: c.name, ...r, template: false as const })),
        ...templates.map((t) => {
          const parsed = parseUriTemplate(t.uriTemplate);
          return {
            server: c.name,
            ...t,
            template: true as const,
            ...(parsed.ok ? { variables: parsed.variables } : { variables: [], unsupported: parsed.error }),
          };
        }),
      ];
    }),
  );
  return { items: lists.flat() };
}

/** completion/complete for a resource template's variable (none when the server offers no completions). */
export async function completeTemplate(
  user: Principal,
  server: string,
  uriTemplate: string,
  argument: string,
  value: string,
  context: Record<string, string>,
) {
  return {
    values: await connection(user, server)
      .request(completeTemplateArgument(uriTemplate, argument, value, context))
      .catch(() => []),
  };
}

/** resources/read for an attachment: text contents joined and capped like a tool result. */
export async function readResourceForMessage(user: Principal, server: string, uri: string) {
  const result = await asUser(user, server, () => connection(user, server).request(readResource(uri)));
  const text = result.contents
    .map((c) =>
      'text' in c ? c.text : `[binary ${c.mimeType ?? 'data'}, ${Math.round((c.blob.length * 3) / 4)} bytes]`,
    )
    .join('\n');
  const capped = text.length > MAX_RESULT_BYTES ? `${text.slice(0, MAX_RESULT_BYTES)}\n[truncated]` : text;
  const first = result.contents[0];
  return { server, uri, mimeType: first?.mimeType, text: capped };
}

/** resources/read over the user's own connection, as the server answered (MCP Apps read their `ui://` documents so). */
export async function readUserResource(user: Principal, server: string, uri: string) {
  return asUser(user, server, () => connection(user, server).request(readResource(uri)));
}

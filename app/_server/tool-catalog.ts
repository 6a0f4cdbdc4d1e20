import 'server-only';
import { cachedSettings } from '@/app/_server/hot-cache';
import { toolPolicy } from '@/app/_server/tool-policy';
import { getPool } from '@/lib/mcp/pool';

/** Rough token cost of a tool's definition in a request (~4 characters per token). */
export function estimateTokens(tool: { name: string; description?: string; inputSchema: unknown }): number {
  const wire = {
    type: 'function',
    function: { name: tool.name, description: tool.description ?? '', parameters: tool.inputSchema },
  };
  return Math.ceil(JSON.stringify(wire).length / 4);
}

/**
 * What a user may enable in a conversation: servers with their usable tools, or why a server is
 * unavailable; and the admin's step and tool-call limits, the most a conversation may set.
 */
export async function userToolCatalog() {
  const statuses = new Map(
    getPool()
      .statuses()
      .map((s) => [s.name, s]),
  );
  const catalog = await getPool().tools(undefined, 2_000);
  const { maxSteps, maxToolCalls } = cachedSettings();
  return {
    limits: { maxSteps, maxToolCalls },
    servers: catalog.map((entry) => {
      const status = statuses.get(entry.server);
      if (!('tools' in entry)) {
        // Users see the status and a reference; the failure's detail (stderr, URL) is for admins.
        return {
          name: entry.server,
          status: status?.status ?? 'error',
          error: getPool().publicFailure(entry.server, entry.error).message,
          tools: [],
        };
      }
      const tools = entry.tools
        .filter((t) => toolPolicy(entry.server, t).enabled)
        .map((t) => ({
          name: t.name,
          description: (t.description ?? '').slice(0, 300),
          tokens: estimateTokens(t),
        }));
      return { name: entry.server, status: status?.status ?? 'connected', error: null, tools };
    }),
  };
}

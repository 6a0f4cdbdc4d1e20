import 'server-only';
import { cachedSettings } from '@/app/_server/hot-cache';
import { connectionState } from '@/app/_server/mcp-connections';
import { toolPolicy } from '@/app/_server/tool-policy';
import type { Principal } from '@/lib/access';
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
 * What a user may enable in a conversation: the servers they may use with their usable tools, or why
 * a server is unavailable to them and what they can do (supply values, sign in); and the admin's step
 * and tool-call limits, the most a conversation may set.
 */
export async function userToolCatalog(user: Principal) {
  const pool = getPool().forUser(user);
  const configs = new Map(pool.servers().map((c) => [c.name, c]));
  const catalog = await pool.tools(undefined, 2_000);
  const { maxSteps, maxToolCalls } = cachedSettings();
  return {
    limits: { maxSteps, maxToolCalls },
    servers: catalog.map((entry) => {
      const config = configs.get(entry.server);
      const state = config ? connectionState(user, config) : null;
      const connect =
        state?.status === 'needs-auth'
          ? { oauth: !state.values?.some((v) => !v.set), values: state.values ?? [] }
          : null;
      if (!('tools' in entry)) {
        // Users see the status and a reference; the failure's detail (stderr, URL) is for admins.
        return {
          name: entry.server,
          status: state?.status ?? 'error',
          error: connect ? (state?.error ?? null) : pool.publicFailure(entry.server, entry.error).message,
          connect,
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
      return {
        name: entry.server,
        status: 'ready',
        error: null,
        connect: null,
        signedIn: state?.signedIn ?? false,
        tools,
      };
    }),
  };
}

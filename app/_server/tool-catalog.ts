import 'server-only';
import { cachedSettings } from '@/app/_server/hot-cache';
import { connectionState } from '@/app/_server/mcp-connections';
import { toolPolicies } from '@/app/_server/tool-policy';
import type { Principal } from '@/lib/access';
import { getPool } from '@/lib/mcp/pool';
import { estimateToolTokens } from '@/lib/schemas/tool-budget';

/**
 * What a user may enable in a conversation: the servers they may use with their usable tools, or why
 * a server is unavailable to them and what they can do (supply values, sign in); and the admin's step
 * and tool-call limits, the most a conversation may set.
 */
export async function userToolCatalog(user: Principal) {
  const pool = getPool().forUser(user);
  const configs = new Map(pool.servers().map((c) => [c.name, c]));
  const catalog = await pool.tools(undefined, 2_000);
  const { maxSteps, maxToolCalls, toolSearchMaxTools, toolSearchMaxTokens } = await cachedSettings();
  const policies = await toolPolicies(user);
  const states = new Map(
    await Promise.all(
      catalog.map(async (entry) => {
        const config = configs.get(entry.server);
        return [entry.server, config ? await connectionState(user, config) : null] as const;
      }),
    ),
  );
  return {
    limits: { maxSteps, maxToolCalls },
    // Above these the chat turn sends a tool search instead of every tool (the composer says so).
    toolSearch: { maxTools: toolSearchMaxTools, maxTokens: toolSearchMaxTokens },
    servers: catalog.map((entry) => {
      const state = states.get(entry.server) ?? null;
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
        .filter((t) => policies.of(entry.server, t).enabled)
        .map((t) => ({
          name: t.name,
          description: (t.description ?? '').slice(0, 300),
          tokens: estimateToolTokens(t),
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

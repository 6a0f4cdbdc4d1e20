import type { ToolMode, ToolSettings } from '@/lib/schemas/chat';
import { needsToolSearch, type ToolSearchBudget } from '@/lib/schemas/tool-budget';
import { isServerOn, toolKey } from '@/lib/tool-toggles';

/** GET /api/tools: the servers a user can enable, with their tools' estimated token cost. */
export type CatalogTool = { name: string; description: string; tokens: number };
/** What the user must do before the server runs for them: enter their values, or sign in (OAuth). */
export type CatalogConnect = { oauth: boolean; values: Array<{ key: string; set: boolean }> };
export type CatalogServer = {
  name: string;
  status: string;
  error: string | null;
  connect?: CatalogConnect | null;
  /** The user holds their own sign-in for this server (they can disconnect it). */
  signedIn?: boolean;
  tools: CatalogTool[];
};
/** The admin's per-turn limits: the most a conversation may set. */
export type ToolLimits = { maxSteps: number; maxToolCalls: number };
/** `toolSearch`: the admin's bounds above which the model gets a tool search instead of every tool. */
export type ToolCatalog = { servers: CatalogServer[]; limits: ToolLimits; toolSearch?: ToolSearchBudget };

/** Before the catalog arrives, the schema's bounds (the server checks the admin's anyway). */
export const SCHEMA_LIMITS: ToolLimits = { maxSteps: 100, maxToolCalls: 200 };

export const TOOL_WARN_COUNT = 40;
export const TOOL_WARN_TOKENS = 8_000;

export const modeOf = (s: ToolSettings): ToolMode => s.toolMode ?? 'auto';

export const isAvailable = (server: CatalogServer) => server.error === null;

export { isServerOn };

export const isToolOn = (s: ToolSettings, server: string, tool: string) =>
  isServerOn(s, server) && !(s.disabledTools ?? []).includes(toolKey(server, tool));

/** The tools a request would carry (ignoring the mode): available servers that are on, minus switched-off tools. */
export function enabledTools(catalog: ToolCatalog | null, s: ToolSettings) {
  const servers = (catalog?.servers ?? [])
    .filter((server) => isAvailable(server) && isServerOn(s, server.name))
    .map((server) => ({
      name: server.name,
      tools: server.tools.filter((t) => isToolOn(s, server.name, t.name)),
    }));
  const tools = servers.flatMap((server) => server.tools);
  return { servers, count: tools.length, tokens: tools.reduce((sum, t) => sum + t.tokens, 0) };
}

export const isHeavy = (count: number, tokens: number) =>
  count > TOOL_WARN_COUNT || tokens > TOOL_WARN_TOKENS;

/** Whether a turn with these tools will send the tool search instead of them (as lib/chat/tool-search decides). */
export const isToolSearchOn = (catalog: ToolCatalog | null, mode: ToolMode, count: number, tokens: number) =>
  mode !== 'off' && needsToolSearch(count, tokens, catalog?.toolSearch);

export const formatTokens = (n: number) => n.toLocaleString('en-US');

import 'server-only';
import { dynamicTool, type ToolSet } from 'ai';
import * as z from '@/lib/zod';
import type { ToolEntry } from '@/lib/chat/tools';
import type { ChatMessage } from '@/lib/schemas/chat';
import { estimateToolTokens, needsToolSearch, type ToolSearchBudget } from '@/lib/schemas/tool-budget';
import type { ToolMetadata } from '@/lib/schemas/tool-metadata';

/**
 * Big catalogs: above the admin's budget the model is not sent every tool's definition but one built-in
 * tool, `search_tools`. It ranks the turn's tools against a query and loads the best matches, which the
 * model can call from its next step on, for the rest of the turn. Every tool stays in the turn's ToolSet
 * (approvals, policies and the call log work as before); only the step's `activeTools` narrow what the
 * model sees. The search never reaches an MCP server and needs no approval.
 */

/** MCP tools are exposed as `server__tool` (lib/mcp/tool-names.ts), so this name never collides with one. */
export const SEARCH_TOOL = 'search_tools';
export const DEFAULT_SEARCH_LIMIT = 5;
export const MAX_SEARCH_LIMIT = 20;
/** What the tool card shows as "server.tool" for a search. */
const METADATA: ToolMetadata = { server: 'built-in', tool: SEARCH_TOOL };

export const SearchInputSchema = z
  .object({
    query: z
      .string()
      .min(1)
      .max(500)
      .describe('Keywords: what you want to do, or a tool or server name (e.g. "weather forecast").'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_SEARCH_LIMIT)
      .optional()
      .describe(`How many tools to load, ${DEFAULT_SEARCH_LIMIT} if left out.`),
  })
  .strict();

export type SearchMatch = { name: string; server: string; description: string };
export type SearchOutput = { query: string; total: number; tools: SearchMatch[]; note: string };

export type ToolSearch = {
  /** The turn's tools plus the search tool. */
  tools: ToolSet;
  /** What a step may see: the search tool and the tools loaded so far. */
  activeTools: () => string[];
  loaded: ReadonlySet<string>;
};

/** How many tools a turn carries and what their definitions cost, counted as the composer counts them. */
export function catalogSize(entries: Iterable<ToolEntry>): { count: number; tokens: number } {
  let count = 0;
  let tokens = 0;
  for (const e of entries) {
    count++;
    tokens += estimateToolTokens(e.tool);
  }
  return { count, tokens };
}

/** Tool search for this turn, or undefined when its tools fit the budget and are all sent as they are. */
export function createToolSearch(
  toolkit: { tools: ToolSet; entries: Map<string, ToolEntry> },
  budget: ToolSearchBudget | undefined,
  history: ChatMessage[],
): ToolSearch | undefined {
  const { count, tokens } = catalogSize(toolkit.entries.values());
  if (!needsToolSearch(count, tokens, budget)) return undefined;
  // An answer continued after approvals keeps what it had loaded before it paused.
  const loaded = new Set(loadedInAnswer(history.at(-1), toolkit.entries));
  return {
    tools: { ...toolkit.tools, [SEARCH_TOOL]: searchTool(toolkit.entries, loaded) },
    activeTools: () => [SEARCH_TOOL, ...loaded],
    loaded,
  };
}

/** The built-in search over `entries`; what it finds is added to `loaded`. */
export function searchTool(entries: Map<string, ToolEntry>, loaded: Set<string>) {
  const servers = [...new Set([...entries.values()].map((e) => e.server))];
  const named = servers.length > 20 ? `${servers.slice(0, 20).join(', ')}, …` : servers.join(', ');
  return dynamicTool({
    description:
      `Find tools. This conversation has ${entries.size} tools (servers: ${named}) but their definitions ` +
      'are not sent until you search. Search by keywords: what you want to do, or a tool or server name. ' +
      'The best matches are loaded and can be called by name from your next step on, for the rest of ' +
      'this answer. Search before telling the user a tool is missing.',
    inputSchema: SearchInputSchema,
    metadata: METADATA,
    execute: async (input) => {
      const { query, limit } = SearchInputSchema.parse(input);
      return runSearch(entries, loaded, query, limit ?? DEFAULT_SEARCH_LIMIT);
    },
  });
}

/** Ranks, loads and describes the matches of one search. */
export function runSearch(
  entries: Map<string, ToolEntry>,
  loaded: Set<string>,
  query: string,
  limit: number,
): SearchOutput {
  const found = rankTools([...entries.values()], query).slice(0, limit);
  for (const e of found) loaded.add(e.exposed);
  const tools = found.map((e) => ({
    name: e.exposed,
    server: e.server,
    description: (e.tool.description ?? '').slice(0, 300),
  }));
  if (tools.length) {
    return {
      query,
      total: entries.size,
      tools,
      note: `Loaded ${tools.length} tool(s): call them by name in your next step. Search again for others.`,
    };
  }
  const servers = [...new Set([...entries.values()].map((e) => e.server))].slice(0, 20);
  return {
    query,
    total: entries.size,
    tools: [],
    note:
      `No tool matched "${query}". Try other or fewer keywords: the task in plain words ` +
      `(e.g. "send email"), a tool's name, or a server's name (${servers.join(', ')}).`,
  };
}

const STOP_WORDS = new Set(
  'a an and are as at be by can do for from get i in is it me my of on or please some the to tool tools use with'.split(
    ' ',
  ),
);

/** Lowercase words of a name or text: camelCase and snake_case split, a plural "s" dropped. */
export function words(text: string): string[] {
  return text
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map(stem);
}

function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/**
 * The entries that match `query`, best first. Each distinct query word scores once, by the best place it
 * appears: a word of the tool's name 3, of its server's name 2, of its description 1; else, as part of
 * a longer word (3+ letters, or any non-Latin text such as Chinese), 1 in the name or 0.5 in the
 * description. A query that is exactly a tool's name ranks it first. Ties keep the catalog's order.
 * Deterministic and cheap: 1,000 tools rank in well under a millisecond per query word.
 */
export function rankTools(entries: ToolEntry[], query: string): ToolEntry[] {
  const wanted = [...new Set(words(query))].filter((w) => !STOP_WORDS.has(w));
  const whole = query.trim().toLowerCase();
  const scored = entries.map((entry, index) => {
    const name = `${entry.tool.name} ${entry.tool.title ?? ''}`;
    const nameWords = new Set(words(name));
    const serverWords = new Set(words(entry.server));
    const description = entry.tool.description ?? '';
    const descriptionWords = new Set(words(description));
    const nameText = name.toLowerCase();
    const descriptionText = description.toLowerCase();
    let score = whole === entry.tool.name.toLowerCase() || whole === entry.exposed.toLowerCase() ? 10 : 0;
    for (const w of wanted) {
      const partial = w.length >= 3 || /[^\p{Script=Latin}\p{N}]/u.test(w);
      if (nameWords.has(w)) score += 3;
      else if (serverWords.has(w)) score += 2;
      else if (descriptionWords.has(w)) score += 1;
      else if (partial && nameText.includes(w)) score += 1;
      else if (partial && descriptionText.includes(w)) score += 0.5;
    }
    return { entry, index, score };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((s) => s.entry);
}

/** The tools earlier searches of this answer loaded (when the turn continues an answer after approvals). */
export function loadedInAnswer(message: ChatMessage | undefined, entries: Map<string, ToolEntry>): string[] {
  if (message?.role !== 'assistant') return [];
  return message.parts.flatMap((p) => {
    if (p.type !== 'dynamic-tool' || p.toolName !== SEARCH_TOOL || p.state !== 'output-available') return [];
    const tools = (p.output as Partial<SearchOutput> | undefined)?.tools;
    if (!Array.isArray(tools)) return [];
    return tools.flatMap((t) => (typeof t?.name === 'string' && entries.has(t.name) ? [t.name] : []));
  });
}

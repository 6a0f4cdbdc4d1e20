import 'server-only';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { nestsDeeperThan } from '@/lib/json-depth';
import { loggable } from '@/lib/loggable';

/**
 * The cached tool list of one McpConnection: served from cache while fresh, a stale list served
 * while it refreshes in the background, one listing at a time (concurrent callers share it), a
 * listing redone when list_changed arrived while it ran, and the last good list kept when a refresh
 * fails. How a listing is fetched (over which client, with which retries) is McpConnection's part.
 */

export type ToolCacheOptions = {
  /** The server's name, for the log when onTools throws. */
  server: string;
  /** Re-list in the background when the cached list is older than this. */
  ttlMs: number;
  /** Fetches the whole list once (see listAllTools). */
  fetch: () => Promise<Tool[]>;
  /** Told when a fetch succeeded, before its list is checked for staleness. */
  onFetched: () => void;
  /** Told every time a fresh list is kept; an exception it throws, or a promise it returns that fails, is logged. */
  onTools: (tools: Tool[]) => void | Promise<void>;
};

/**
 * How deep a tool's definition (its schemas, annotations, _meta) may nest. JSON.parse takes any depth,
 * but JSON.stringify recurses: a schema some thousands of levels deep throws wherever the tool is
 * serialized (the catalog's token estimate, every model request), failing every chat with its server.
 */
export const MAX_TOOL_DEPTH = 100;

/** How often list_changed may have a server's tools listed again in the background. */
export const RELIST_EVERY_MS = 1_000;

/** The most tools kept of one server: the rest of its list is left out (and the admin told). */
export const MAX_TOOLS = 10_000;

/**
 * Every page of a server's tools/list, within one session (a cursor belongs to its session), up to
 * MAX_TOOLS (however they are paged: one page may hold a million small tools). A tool nesting deeper
 * than MAX_TOOL_DEPTH is left out. `onDropped` is told what was left out and why (for the admin).
 */
export async function listAllTools(
  client: Client,
  timeoutMs: number,
  onRequest: () => unknown,
  onDropped: (why: string) => void = () => {},
): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  let over = 0;
  do {
    onRequest();
    const page = await client.listTools(cursor ? { cursor } : undefined, {
      timeout: timeoutMs,
    });
    for (const tool of page.tools) {
      if (nestsDeeperThan(tool, MAX_TOOL_DEPTH))
        onDropped(
          `Tool "${tool.name.slice(0, 128)}" left out: its definition nests deeper than ${MAX_TOOL_DEPTH} levels`,
        );
      else if (tools.length < MAX_TOOLS) tools.push(tool);
      else over++;
    }
    cursor = page.nextCursor;
  } while (cursor && tools.length < MAX_TOOLS);
  if (over > 0 || cursor)
    onDropped(`Only the first ${MAX_TOOLS} tools are used; the server lists more (${over} more seen).`);
  return tools;
}

export class ToolCache {
  private tools: { list: Tool[]; fetchedAt: number } | null = null;
  private listing: Promise<Tool[]> | null = null;
  private changedWhileListing = false;
  private relistedAt = Number.NEGATIVE_INFINITY;
  private relistTimer: NodeJS.Timeout | null = null;

  constructor(private readonly opts: ToolCacheOptions) {}

  /** How many tools the last good list has (0 before the first). */
  get count(): number {
    return this.tools?.list.length ?? 0;
  }

  /** Whether the last good list exists and lacks `name`. */
  lacks(name: string): boolean {
    return this.tools !== null && !this.tools.list.some((t) => t.name === name);
  }

  /** The tool of that name in the last good list. */
  find(name: string): Tool | undefined {
    return this.tools?.list.find((t) => t.name === name);
  }

  /** Makes the next get() re-list; the last good list is kept meanwhile. */
  invalidate(): void {
    if (this.tools) this.tools.fetchedAt = 0;
  }

  /**
   * The server said its list changed (list_changed): a listing under way is redone too, and the list is
   * read again in the background — at once, then at most once per RELIST_EVERY_MS while changes keep
   * coming (the last one is always followed by a listing). A server may send list_changed without end,
   * and each listing is a request, a parse and a database check of every tool.
   */
  changed(): void {
    if (this.listing) this.changedWhileListing = true;
    this.invalidate();
    if (this.relistTimer) return;
    const wait = this.relistedAt + RELIST_EVERY_MS - Date.now();
    if (wait <= 0) {
      this.relist();
      return;
    }
    this.relistTimer = setTimeout(() => {
      this.relistTimer = null;
      this.relist();
    }, wait);
    this.relistTimer.unref?.();
  }

  private relist(): void {
    this.relistedAt = Date.now();
    void this.get().catch(() => {});
  }

  /** The server's tools, from cache when fresh; a stale cache is served while it refreshes in the background. */
  async get(): Promise<Tool[]> {
    const cached = this.tools;
    if (cached && cached.fetchedAt > 0) {
      if (Date.now() - cached.fetchedAt > this.opts.ttlMs) void this.refresh().catch(() => {});
      return cached.list;
    }
    try {
      return await this.refresh();
    } catch (err) {
      if (cached) return cached.list; // keep the last good catalog; the next use retries
      throw err;
    }
  }

  private refresh(): Promise<Tool[]> {
    this.listing ??= this.fetchAll().finally(() => {
      this.listing = null;
    });
    return this.listing;
  }

  private async fetchAll(): Promise<Tool[]> {
    for (let attempt = 0; ; attempt++) {
      this.changedWhileListing = false;
      const list = await this.opts.fetch();
      this.opts.onFetched();
      // A list_changed that arrived mid-listing may not be reflected: list again (bounded).
      if (this.changedWhileListing && attempt < 3) continue;
      this.tools = { list, fetchedAt: Date.now() };
      // The observer records the list (a database write): its failure is logged, never thrown at the
      // caller nor left an unhandled rejection, which would end the process.
      const failed = (err: unknown) =>
        console.error(`[mcp] tool observer failed for "${this.opts.server}"`, loggable(err));
      try {
        this.opts.onTools(list)?.catch(failed);
      } catch (err) {
        failed(err);
      }
      return list;
    }
  }
}

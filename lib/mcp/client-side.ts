import 'server-only';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ActiveCalls, type CallHooks } from '@/lib/mcp/active-calls';
import type { ClientHandlers } from '@/lib/mcp/connect';
import type { McpServerConfig } from '@/lib/schemas/mcp';

/** A root as MCP lists it: its URI, named by its last path segment. */
function rootOf(uri: string): { uri: string; name: string } {
  const path = decodeURIComponent(new URL(uri).pathname).replace(/\/+$/, '');
  return { uri, name: path.split('/').at(-1) || '/' };
}

/**
 * What one connection answers as the client: a server's elicitation and sampling requests (routed to
 * the running call they serve, see ActiveCalls) and its roots. Capabilities are advertised only where
 * they work: sampling unless the admin set "never", roots only when there are some to share.
 */
export class ClientSide {
  private readonly active = new ActiveCalls();
  private roots: string[];
  /** Whether the current client advertised roots (decided at each connect). */
  private rootsAdvertised = false;

  constructor(private readonly config: McpServerConfig) {
    this.roots = config.roots ?? [];
  }

  /** Registers a running call; the returned function ends it. */
  enter(owner: string | undefined, hooks: CallHooks | undefined): () => void {
    return this.active.enter(owner, hooks);
  }

  /** The handlers (and so the capabilities) of a new client. */
  handlers(): ClientHandlers {
    this.rootsAdvertised = this.roots.length > 0;
    return {
      elicit: (params, signal) => this.active.elicit(params, signal),
      elicitationComplete: (id) => this.active.completed(id),
      ...(this.config.sampling !== 'never' && {
        sample: (params, signal) => this.active.sample(params, signal),
      }),
      // Advertised only with something to share: a server told "no roots" may refuse every path.
      ...(this.rootsAdvertised && { roots: () => this.roots.map(rootOf) }),
      // Apps render only where the admin left them on (the tool card then shows the server's UI).
      ...(this.config.transport !== 'builtin' && this.config.apps?.enabled !== false && { apps: true }),
    };
  }

  /**
   * New roots from the admin: a connected server is told (roots/list_changed) and lists them again.
   * False when the change is between none and some, which the capabilities sent at connect cannot
   * express: the caller then reconnects.
   */
  updateRoots(roots: string[], client: Client | null, connecting: boolean): boolean {
    if ((client || connecting) && this.rootsAdvertised !== roots.length > 0) return false;
    this.roots = roots;
    if (client && this.rootsAdvertised) void client.sendRootsListChanged().catch(() => {});
    return true;
  }
}

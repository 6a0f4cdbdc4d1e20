import 'server-only';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { getDb } from '@/db/client';
import { getMcpServerByName, listMcpServers } from '@/db/queries/mcp-servers';
import { type ChangedToolView, listChangedToolViews } from '@/db/queries/mcp-tool-views';
import {
  listToolSettings,
  observeToolDefinitions,
  type ToolSettingRow,
  toolKey,
} from '@/db/queries/mcp-tools';
import { toolDefinition } from '@/lib/mcp/tool-definition';
import { dropProcessState, processState } from '@/lib/process-state';
import type { ApprovalPolicy, McpServerConfig } from '@/lib/schemas/mcp';
import { publishInvalidation } from '@/lib/shared/invalidation';

type Cache = {
  settings: Map<string, ToolSettingRow>;
  configs: Map<string, McpServerConfig>;
  /** Per-user servers' tools changed for some users: "server/tool" → user id → their view. */
  changedViews: Map<string, Map<string, ChangedToolView>>;
};

declare module '@/lib/process-state' {
  interface OwnedSlots {
    toolPolicy: Promise<Cache>;
  }
}

/** Tool settings and server configs, read once and kept until an admin change or a new tool list. */
function cache(): Promise<Cache> {
  return processState('toolPolicy', () => {
    const read = Promise.all([
      listToolSettings(getDb()),
      listMcpServers(getDb()),
      listChangedToolViews(getDb()),
    ]).then(([settings, servers, views]) => {
      const changedViews = new Map<string, Map<string, ChangedToolView>>();
      for (const view of views) {
        const key = `${view.serverName}/${view.tool}`;
        changedViews.set(key, (changedViews.get(key) ?? new Map()).set(view.userId, view));
      }
      return {
        settings: new Map(settings.map((r) => [`${r.serverName}/${r.tool}`, r])),
        configs: new Map(servers.map((r) => [r.config.name, r.config])),
        changedViews,
      };
    });
    // A failed read is not kept: the next caller reads again.
    read.catch(() => dropProcessState('toolPolicy'));
    return read;
  });
}

export function invalidateToolPolicies(): void {
  dropProcessState('toolPolicy');
  publishInvalidation('tools');
}

/** Default: built-in and read-only tools run at once; anything else asks first. */
export function defaultApproval(config: McpServerConfig | undefined, tool: Tool): ApprovalPolicy {
  if (config?.transport === 'builtin') return 'auto';
  return tool.annotations?.readOnlyHint === true ? 'auto' : 'ask';
}

export type ToolPolicy = { enabled: boolean; approval: ApprovalPolicy; changed: boolean };

/**
 * The tool policies for one user as read now (one read, kept until an admin change), asked per tool
 * without waiting. Whether a tool changed is what this user is shown: of a per-user server, their own
 * connection's definitions (each user's may differ); of a shared one, the one connection's.
 */
export type ToolPolicies = {
  /** The effective policy of a tool: the admin's choice, the default, and "changed" always forcing ask. */
  of(server: string, tool: Tool): ToolPolicy;
  /** The admin's stored setting of a tool, if any. */
  setting(server: string, tool: string): ToolSettingRow | undefined;
  /** The definition last reviewed of what this user is shown of a tool that changed for them. */
  reviewed(server: string, tool: string): Record<string, unknown> | undefined;
};

export async function toolPolicies(viewer: { id: string }): Promise<ToolPolicies> {
  const { settings, configs, changedViews } = await cache();
  const perUser = (server: string) => configs.get(server)?.scope === 'user';
  const mine = (server: string, tool: string) =>
    changedViews.get(`${server}/${toolKey(tool)}`)?.get(viewer.id);
  const changed = (server: string, tool: string) =>
    perUser(server)
      ? mine(server, tool) !== undefined
      : (settings.get(`${server}/${toolKey(tool)}`)?.changed ?? false);
  return {
    of(server, tool) {
      const row = settings.get(`${server}/${toolKey(tool.name)}`);
      const isChanged = changed(server, tool.name);
      return {
        enabled: row?.enabled ?? true,
        approval: isChanged ? 'ask' : (row?.approval ?? defaultApproval(configs.get(server), tool)),
        changed: isChanged,
      };
    },
    setting: (server, tool) => settings.get(`${server}/${toolKey(tool)}`),
    reviewed(server, tool) {
      if (!changed(server, tool)) return undefined;
      return perUser(server)
        ? mine(server, tool)?.reviewedDefinition
        : settings.get(`${server}/${toolKey(tool)}`)?.reviewedDefinition;
    },
  };
}

/**
 * Pool observer: every fresh tool list is compared with what was reviewed; `user` is whose own
 * connection to a per-user server listed it (null: a shared server's connection).
 */
export async function observeTools(
  server: string,
  tools: Tool[],
  user: { id: string } | null,
): Promise<void> {
  const db = getDb();
  const record = await getMcpServerByName(db, server);
  if (!record) return;
  const viewer = record.config.scope === 'user' && user ? user.id : null;
  if (await observeToolDefinitions(db, record.id, tools.map(toolDefinition), viewer))
    invalidateToolPolicies();
}

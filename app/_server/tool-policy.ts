import 'server-only';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { getDb } from '@/db/client';
import { getMcpServerByName, listMcpServers } from '@/db/queries/mcp-servers';
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

type Cache = { settings: Map<string, ToolSettingRow>; configs: Map<string, McpServerConfig> };

declare module '@/lib/process-state' {
  interface OwnedSlots {
    toolPolicy: Promise<Cache>;
  }
}

/** Tool settings and server configs, read once and kept until an admin change or a new tool list. */
function cache(): Promise<Cache> {
  return processState('toolPolicy', () => {
    const read = Promise.all([listToolSettings(getDb()), listMcpServers(getDb())]).then(
      ([settings, servers]) => ({
        settings: new Map(settings.map((r) => [`${r.serverName}/${r.tool}`, r])),
        configs: new Map(servers.map((r) => [r.config.name, r.config])),
      }),
    );
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

/** The tool policies as read now (one read, kept until an admin change), asked per tool without waiting. */
export type ToolPolicies = {
  /** The effective policy of a tool: the admin's choice, the default, and "changed" always forcing ask. */
  of(server: string, tool: Tool): ToolPolicy;
  /** The admin's stored setting of a tool, if any. */
  setting(server: string, tool: string): ToolSettingRow | undefined;
};

export async function toolPolicies(): Promise<ToolPolicies> {
  const { settings, configs } = await cache();
  return {
    of(server, tool) {
      const row = settings.get(`${server}/${toolKey(tool.name)}`);
      const changed = row?.changed ?? false;
      return {
        enabled: row?.enabled ?? true,
        approval: changed ? 'ask' : (row?.approval ?? defaultApproval(configs.get(server), tool)),
        changed,
      };
    },
    setting: (server, tool) => settings.get(`${server}/${toolKey(tool)}`),
  };
}

/** Pool observer: every fresh tool list is compared with what the admin reviewed. */
export async function observeTools(server: string, tools: Tool[]): Promise<void> {
  const db = getDb();
  const record = await getMcpServerByName(db, server);
  if (!record) return;
  if (await observeToolDefinitions(db, record.id, tools.map(toolDefinition))) invalidateToolPolicies();
}

import 'server-only';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { getDb } from '@/db/client';
import { getMcpServerByName, listMcpServers } from '@/db/queries/mcp-servers';
import { listToolSettings, observeToolDefinitions, type ToolSettingRow } from '@/db/queries/mcp-tools';
import { toolDefinition } from '@/lib/mcp/tool-definition';
import { dropProcessState, processState } from '@/lib/process-state';
import type { ApprovalPolicy, McpServerConfig } from '@/lib/schemas/mcp';
import { publishInvalidation } from '@/lib/shared/invalidation';

type Cache = { settings: Map<string, ToolSettingRow>; configs: Map<string, McpServerConfig> };

declare module '@/lib/process-state' {
  interface OwnedSlots {
    toolPolicy: Cache;
  }
}

/** Tool settings and server configs, read once and kept until an admin change or a new tool list. */
function cache(): Cache {
  return processState('toolPolicy', () => ({
    settings: new Map(listToolSettings(getDb()).map((r) => [`${r.serverName}/${r.tool}`, r])),
    configs: new Map(listMcpServers(getDb()).map((r) => [r.config.name, r.config])),
  }));
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

/** The effective policy of a tool: the admin's choice, the default, and "changed" always forcing ask. */
export function toolPolicy(
  server: string,
  tool: Tool,
): { enabled: boolean; approval: ApprovalPolicy; changed: boolean } {
  const { settings, configs } = cache();
  const row = settings.get(`${server}/${tool.name}`);
  const changed = row?.changed ?? false;
  return {
    enabled: row?.enabled ?? true,
    approval: changed ? 'ask' : (row?.approval ?? defaultApproval(configs.get(server), tool)),
    changed,
  };
}

export function toolSetting(server: string, tool: string): ToolSettingRow | undefined {
  return cache().settings.get(`${server}/${tool}`);
}

/** Pool observer: every fresh tool list is compared with what the admin reviewed. */
export function observeTools(server: string, tools: Tool[]): void {
  const db = getDb();
  const record = getMcpServerByName(db, server);
  if (!record) return;
  if (observeToolDefinitions(db, record.id, tools.map(toolDefinition))) invalidateToolPolicies();
}

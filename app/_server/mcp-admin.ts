import 'server-only';
import { getDb } from '@/db/client';
import { getMcpServer, type McpServerRecord } from '@/db/queries/mcp-servers';
import { updateToolSetting } from '@/db/queries/mcp-tools';
import { presentServer } from '@/app/_server/mcp-servers';
import { liveStatuses } from '@/app/_server/mcp-status';
import { invalidateToolPolicies, toolPolicies } from '@/app/_server/tool-policy';
import type { Principal } from '@/lib/access';
import { notFound } from '@/lib/errors';
import { listPrompts, listResources, listResourceTemplates } from '@/lib/mcp/context-requests';
import { getPool } from '@/lib/mcp/pool';
import { toolDefinition } from '@/lib/mcp/tool-definition';

/**
 * The connection the admin pages inspect a server through: the shared one, or for a per-user server the
 * admin's own (allow lists do not hide a server from the admin who manages it).
 */
function inspect(record: McpServerRecord, admin: Principal) {
  return getPool().connectionFor(record.config.name, admin, true);
}

export async function requireServer(id: string): Promise<McpServerRecord> {
  const record = await getMcpServer(getDb(), id);
  if (!record) throw notFound('Server not found.');
  return record;
}

/** The detail view: config, status, every tool in full with its policy and change state, resources, prompts. */
export async function serverDetail(id: string, admin: Principal) {
  const record = await requireServer(id);
  const conn = inspect(record, admin);
  const settle = <T>(p: Promise<T> | undefined, fallback: T) =>
    p ? p.catch(() => fallback) : Promise.resolve(fallback);
  const enabled = record.config.enabled && conn;
  const [live, tools, resources, prompts] = await Promise.all([
    liveStatuses([record.config.name]),
    settle(enabled ? conn.listTools() : undefined, []),
    // Templates show beside the resources, by their URI template.
    settle(
      enabled
        ? Promise.all([
            conn.request(listResources),
            conn.request(listResourceTemplates).catch(() => []),
          ]).then(([r, t]) => [...r, ...t.map(({ uriTemplate, ...rest }) => ({ uri: uriTemplate, ...rest }))])
        : undefined,
      [],
    ),
    settle(enabled ? conn.request(listPrompts) : undefined, []),
  ]);
  const policies = await toolPolicies(admin);
  return {
    ...(await presentServer(record, undefined, live)),
    tools: tools.map((tool) => {
      const policy = policies.of(record.config.name, tool);
      // The admin's own view (a per-user server's other users are shown their own definitions).
      const previous = policies.reviewed(record.config.name, tool.name) as
        | { description?: string; inputSchema?: unknown }
        | undefined;
      // Of a per-user server: how many users (the admin too) are shown a changed definition.
      const changedUsers = policies.changedUsers(record.config.name, tool.name);
      return {
        name: tool.name,
        title: tool.title,
        description: tool.description ?? '',
        inputSchema: tool.inputSchema,
        annotations: tool.annotations,
        enabled: policy.enabled,
        approval: policy.approval,
        changed: policy.changed || changedUsers > 0,
        changedUsers,
        previous: previous
          ? { description: previous.description ?? '', inputSchema: previous.inputSchema ?? {} }
          : null,
      };
    }),
    resources,
    prompts,
    /**
     * Per-user servers: who has a live connection in any server process, with its status and last error
     * (never credentials).
     */
    connections: (live.get(record.config.name) ?? []).flatMap((p) => p.users),
  };
}

/** stderr tail, log messages, recent calls, and the failures users were shown by reference (with their detail). */
export async function patchTool(
  admin: Principal,
  id: string,
  tool: string,
  patch: { enabled?: boolean; approval?: 'auto' | 'ask'; reviewed?: boolean },
) {
  const record = await requireServer(id);
  const current =
    (
      await inspect(record, admin)
        ?.listTools()
        .catch(() => [])
    )?.find((t) => t.name === tool) ?? null;
  const row = await updateToolSetting(
    getDb(),
    record.id,
    tool,
    patch,
    current ? toolDefinition(current) : null,
  );
  if (!row) throw notFound('Tool not found.');
  invalidateToolPolicies();
  return (
    (await serverDetail(id, admin)).tools.find((t) => t.name === tool) ?? {
      name: tool,
      enabled: row.enabled,
      approval: row.approval,
      changed: row.changed,
    }
  );
}

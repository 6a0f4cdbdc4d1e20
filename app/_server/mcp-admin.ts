import 'server-only';
import { getDb } from '@/db/client';
import { getMcpServer, type McpServerRecord } from '@/db/queries/mcp-servers';
import { listChangedDefinitions } from '@/db/queries/mcp-tool-views';
import { type ToolPatch, updateToolSetting } from '@/db/queries/mcp-tools';
import { presentTools } from '@/app/_server/mcp-admin-tools';
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
  const [live, tools, resources, prompts, changes] = await Promise.all([
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
    // Of a per-user server: what users are shown that changed since review (the admin's own too).
    record.config.scope === 'user' ? listChangedDefinitions(getDb(), record.id) : [],
  ]);
  const policies = await toolPolicies(admin);
  return {
    ...(await presentServer(record, undefined, live)),
    tools: presentTools(record.config.name, tools, changes, policies),
    resources,
    prompts,
    /**
     * Per-user servers: who has a live connection in any server process, with its status and last error
     * (never credentials).
     */
    connections: (live.get(record.config.name) ?? []).flatMap((p) => p.users),
  };
}

/**
 * An admin's change of one tool. Marking it reviewed accepts what the admin's own connection lists now
 * (if it lists the tool) and, of a per-user server, the users' changed definitions whose hashes the admin
 * was shown (`definitions`); without them no other user's view is accepted.
 */
export async function patchTool(admin: Principal, id: string, tool: string, patch: ToolPatch) {
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
    admin.id,
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

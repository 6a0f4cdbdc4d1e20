import 'server-only';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ChangedDefinition } from '@/db/queries/mcp-tool-views';
import { toolKey } from '@/db/queries/mcp-tools';
import type { ToolDefinition } from '@/lib/mcp/tool-definition';
import type { ToolPolicies } from '@/app/_server/tool-policy';

/** What the admin page shows of a definition (app/admin/_components/definition-diff.tsx diffs it). */
type Shown = Omit<ToolDefinition, 'name'>;

/** What the admin page shows of a definition: what the model is told, as its change hash covers it. */
function shown(definition: Record<string, unknown> | undefined): Shown {
  return {
    ...(typeof definition?.title === 'string' ? { title: definition.title } : {}),
    description: typeof definition?.description === 'string' ? definition.description : '',
    inputSchema: definition?.inputSchema ?? {},
    ...(definition?.outputSchema !== undefined ? { outputSchema: definition.outputSchema } : {}),
    ...(definition?.annotations !== undefined ? { annotations: definition.annotations } : {}),
  };
}

/**
 * A definition some users of a per-user server are shown that changed since it was reviewed for them:
 * its hash (what "Mark reviewed" sends back to accept exactly it), how many users are shown it (never
 * who), and what most of them had reviewed before.
 */
export type UserChange = Shown & { hash: string; users: number; previous: Shown | null };

/**
 * The detail page's tools: each the admin's own connection lists, with its policy and change state, then
 * each tool only users' changed views hold (the admin's own connection lists nothing of it, or fails),
 * so that what users are shown can still be reviewed. Of a per-user server each tool carries the distinct
 * changed definitions users are shown (`userChanges`).
 */
export function presentTools(
  server: string,
  own: Tool[],
  changes: ChangedDefinition[],
  policies: ToolPolicies,
) {
  const byTool = new Map<string, ChangedDefinition[]>();
  for (const change of changes) byTool.set(change.tool, [...(byTool.get(change.tool) ?? []), change]);
  const listed = new Set(own.map((tool) => toolKey(tool.name)));
  const onlyViews: Tool[] = [...byTool]
    .filter(([key]) => !listed.has(key))
    .map(([key, [most]]) => {
      const definition = most?.definition ?? {};
      return {
        name: typeof definition.name === 'string' ? definition.name : key,
        inputSchema: { type: 'object' },
        ...(definition.annotations ? { annotations: definition.annotations as Tool['annotations'] } : {}),
      };
    });
  const present = (tool: Tool, ownView: boolean) => {
    const policy = policies.of(server, tool);
    // The admin's own view (a per-user server's other users are shown their own definitions).
    const previous = ownView
      ? (policies.reviewed(server, tool.name) as Record<string, unknown> | undefined)
      : undefined;
    const userChanges: UserChange[] = (byTool.get(toolKey(tool.name)) ?? []).map((change) => ({
      hash: change.hash,
      ...shown(change.definition),
      users: change.users,
      previous: shown(change.previous),
    }));
    // Of a per-user server: how many users (the admin too) are shown a changed definition.
    const changedUsers = userChanges.reduce((sum, change) => sum + change.users, 0);
    return {
      name: tool.name,
      title: ownView ? tool.title : undefined,
      description: ownView ? (tool.description ?? '') : '',
      inputSchema: ownView ? tool.inputSchema : {},
      annotations: ownView ? tool.annotations : undefined,
      outputSchema: ownView ? tool.outputSchema : undefined,
      /** Whether the admin's own connection lists this tool (else only users' changed views hold it). */
      listed: ownView,
      enabled: policy.enabled,
      approval: policy.approval,
      changed: policy.changed || changedUsers > 0,
      changedUsers,
      userChanges,
      previous: previous ? shown(previous) : null,
    };
  };
  return [...own.map((tool) => present(tool, true)), ...onlyViews.map((tool) => present(tool, false))];
}

import type { ToolPart } from '@/lib/schemas/chat';

/**
 * What lib/chat/tools.ts attaches to every tool call: the MCP server's name and the tool's own name, and
 * for a tool with an MCP App (its `ui://` resource) when the server's apps are on, where that app lives.
 */
export type ToolMetadata = { server: string; tool: string; app?: string };

/**
 * The server and tool a call names in its metadata (either may be missing, e.g. in an imported file).
 * Its own module, without zod, so the tool card can use it without shipping the schemas to the browser.
 */
export function toolMetadataOf(part: Pick<ToolPart, 'toolMetadata'>): Partial<ToolMetadata> {
  const { server, tool, app } = part.toolMetadata ?? {};
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const appUri = text(app);
  return { server: text(server), tool: text(tool), ...(appUri?.startsWith('ui://') && { app: appUri }) };
}

/**
 * How much a conversation's tools cost in a model request, and when that is too much to send them all.
 * Shared by the composer (which says when tool search will be on) and the chat turn (which turns it on),
 * so both count the same way. No zod, no server code: the browser bundle imports it.
 */

/** Above either bound the model gets the built-in tool search instead of every tool's definition. */
export type ToolSearchBudget = { maxTools: number; maxTokens: number };

/** Rough token cost of a tool's definition in a Chat Completions request (~4 characters per token). */
export function estimateToolTokens(tool: {
  name: string;
  description?: string;
  inputSchema: unknown;
}): number {
  const wire = {
    type: 'function',
    function: { name: tool.name, description: tool.description ?? '', parameters: tool.inputSchema },
  };
  return Math.ceil(JSON.stringify(wire).length / 4);
}

/** Tool search is on when the tools are more than `maxTools` or their definitions more than `maxTokens`. */
export function needsToolSearch(
  count: number,
  tokens: number,
  budget: ToolSearchBudget | undefined,
): boolean {
  return budget !== undefined && (count > budget.maxTools || tokens > budget.maxTokens);
}

import 'server-only';
import type { CallToolResult, Progress, Tool } from '@modelcontextprotocol/sdk/types.js';
import { dynamicTool, jsonSchema, type ToolSet } from 'ai';
import type { CallHooks } from '@/lib/mcp/active-calls';
import type { CallOptions } from '@/lib/mcp/connection';
import { throttleProgress } from '@/lib/chat/progress-throttle';
import { binaryBytes, budgetMedia, toolModelOutput } from '@/lib/chat/tool-media';
import { nestsDeeperThan } from '@/lib/json-depth';
import { classifyError } from '@/lib/mcp/errors';
import { publicFailure } from '@/lib/mcp/public-failure';
import type { ServerTools } from '@/lib/mcp/pool';
import { exposeToolNames } from '@/lib/mcp/tool-names';
import type { ToolMetadata } from '@/lib/schemas/tool-metadata';
import type { ApprovalPolicy, ErrorKind } from '@/lib/schemas/mcp';

/** A result larger than this is cut before it reaches the model and the database. */
export const MAX_RESULT_BYTES = 100 * 1024;

export type ToolEntry = { exposed: string; server: string; tool: Tool; approval: ApprovalPolicy };
export type ToolCallRecord = {
  server: string;
  tool: string;
  durationMs: number;
  outcome: 'ok' | 'error' | 'cancelled';
  errorKind: ErrorKind | 'tool' | null;
  error: string | null;
  resultBytes: number;
};

export type BuildToolsInput = {
  catalog: ServerTools[];
  /** Per tool: may the model use it, and must a person approve each call. */
  policy: (server: string, tool: Tool) => { enabled: boolean; approval: ApprovalPolicy };
  call: (
    server: string,
    tool: string,
    args: Record<string, unknown>,
    opts: CallOptions,
  ) => Promise<CallToolResult>;
  record: (call: ToolCallRecord) => void;
  onProgress: (toolCallId: string, progress: Progress) => void;
  /** How one call answers its server's elicitation and sampling requests (none: they are refused). */
  hooks?: (server: string, toolCallId: string) => CallHooks | undefined;
  /** The `ui://` resource of a tool's MCP App, when it has one the host renders. */
  appUri?: (server: string, tool: Tool) => string | undefined;
};

/** How deep a tool's result (its structured content, say) may nest. */
const MAX_RESULT_DEPTH = 100;

/** A tool error whose text goes back to the model so it can recover (never an HTTP 500). */
class ToolCallError extends Error {}

export function resultText(result: CallToolResult): string {
  return result.content
    .map((c) => {
      if (c.type === 'text') return c.text;
      if (c.type === 'image' || c.type === 'audio')
        return `[${c.type}: ${c.mimeType}, ${Math.round((c.data.length * 3) / 4)} bytes]`;
      if (c.type === 'resource')
        return 'text' in c.resource ? c.resource.text : `[resource ${c.resource.uri}]`;
      if (c.type === 'resource_link') return `[resource link ${c.uri}]`;
      return '';
    })
    .join('\n');
}

/** Cuts an oversized result to the byte cap, keeping its text and saying so. */
export function capResult(
  result: CallToolResult,
  maxBytes = MAX_RESULT_BYTES,
): { result: CallToolResult; bytes: number } {
  const bytes = Buffer.byteLength(JSON.stringify(result));
  if (bytes <= maxBytes) return { result, bytes };
  // Images, audio and blobs have their own budget (tool-media.ts): they are kept beside the cut text.
  const budgeted = budgetMedia(result);
  const media = budgeted.content.filter((c) => binaryBytes(c) !== null);
  const rest = { ...budgeted, content: budgeted.content.filter((c) => binaryBytes(c) === null) };
  if (media.length && Buffer.byteLength(JSON.stringify(rest)) <= maxBytes) return { result: budgeted, bytes };
  const text = resultText(rest);
  let kept = Buffer.from(text)
    .subarray(0, maxBytes - 200)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  // JSON escaping (newlines, quotes, control characters) can make the stored result up to 6× the text's bytes.
  for (
    let encoded = Buffer.byteLength(JSON.stringify(kept));
    kept && encoded > maxBytes - 200;
    encoded = Buffer.byteLength(JSON.stringify(kept))
  ) {
    kept = kept
      .slice(0, Math.floor((kept.length * (maxBytes - 200)) / encoded))
      .replace(/[\uD800-\uDBFF]$/, '');
  }
  const note = `\n\n[truncated: the result was ${bytes} bytes; only the first ${Buffer.byteLength(kept)} bytes are shown]`;
  return {
    result: { content: [{ type: 'text', text: kept + note }, ...media], isError: result.isError },
    bytes,
  };
}

/** The MCP tools of a turn as AI SDK dynamic tools, with the name table that maps them back. */
export function buildToolSet(input: BuildToolsInput): { tools: ToolSet; entries: Map<string, ToolEntry> } {
  const byKey = new Map<string, Tool>();
  const refs: Array<{ server: string; tool: string }> = [];
  for (const s of input.catalog) {
    if (!('tools' in s)) continue;
    for (const tool of s.tools) {
      if (!input.policy(s.server, tool).enabled) continue;
      byKey.set(`${s.server}\0${tool.name}`, tool);
      refs.push({ server: s.server, tool: tool.name });
    }
  }
  const { byExposed } = exposeToolNames(refs);
  const tools: ToolSet = {};
  const entries = new Map<string, ToolEntry>();
  for (const [exposed, ref] of byExposed) {
    const tool = byKey.get(`${ref.server}\0${ref.tool}`);
    if (!tool) continue;
    entries.set(exposed, {
      exposed,
      server: ref.server,
      tool,
      approval: input.policy(ref.server, tool).approval,
    });
    tools[exposed] = dynamicTool({
      description: tool.description ?? '',
      inputSchema: jsonSchema(tool.inputSchema as Parameters<typeof jsonSchema>[0]),
      metadata: (() => {
        const app = input.appUri?.(ref.server, tool);
        return { server: ref.server, tool: tool.name, ...(app && { app }) } satisfies ToolMetadata;
      })(),
      execute: (args, { abortSignal, toolCallId }) => executeTool(input, ref, args, abortSignal, toolCallId),
      toModelOutput: ({ output }) => toolModelOutput(output as CallToolResult),
    });
  }
  return { tools, entries };
}

async function executeTool(
  input: BuildToolsInput,
  ref: { server: string; tool: string },
  args: unknown,
  signal: AbortSignal | undefined,
  toolCallId: string,
): Promise<CallToolResult> {
  const started = performance.now();
  const done = (outcome: ToolCallRecord['outcome'], extra: Partial<ToolCallRecord> = {}) =>
    input.record({
      ...ref,
      durationMs: Math.round(performance.now() - started),
      outcome,
      errorKind: null,
      error: null,
      resultBytes: 0,
      ...extra,
    });
  const argsObject =
    args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  let raw: CallToolResult;
  const progress = throttleProgress((p) => input.onProgress(toolCallId, p));
  try {
    raw = await input.call(ref.server, ref.tool, argsObject, {
      signal,
      onProgress: progress.push,
      hooks: input.hooks?.(ref.server, toolCallId),
    });
    progress.flush(); // the last update held, before the result
  } catch (err) {
    progress.drop();
    if (signal?.aborted) {
      done('cancelled', { errorKind: classifyError(err).kind, error: 'Cancelled by the user' });
      throw new ToolCallError('The call was cancelled by the user.');
    }
    // The model and the card get the status and a reference; the admin's call log gets the detail under it.
    const failure = publicFailure(ref.server, err);
    done('error', { errorKind: failure.kind, error: `ref ${failure.ref}: ${failure.detail}` });
    throw new ToolCallError(`Could not run ${ref.server}.${ref.tool}: ${failure.message}`);
  }
  // Parsed at any depth, but serialized (measured, stored, sent to the model) only to a stack's depth.
  if (nestsDeeperThan(raw, MAX_RESULT_DEPTH)) {
    const why = `The result of ${ref.server}.${ref.tool} nests too deep to use (over ${MAX_RESULT_DEPTH} levels).`;
    done('error', { errorKind: 'tool', error: why });
    throw new ToolCallError(why);
  }
  const { result, bytes } = capResult(raw);
  if (result.isError) {
    const text = resultText(result) || 'The tool reported an error.';
    done('error', { errorKind: 'tool', error: text.slice(0, 1000), resultBytes: bytes });
    throw new ToolCallError(text);
  }
  done('ok', { resultBytes: bytes });
  return result;
}

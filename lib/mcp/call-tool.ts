import 'server-only';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  ErrorCode,
  McpError,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';

export type CallCaps = {
  /** Without a response or progress for this long, the call times out. */
  timeoutMs: number;
  /** However much progress arrives, the call ends after this long. */
  maxTotalMs: number;
};

/**
 * tools/call with both limits; either one, like the caller's signal (Stop), sends
 * notifications/cancelled so the server stops working on it. (The SDK's own maxTotalTimeout only
 * fires when the next progress arrives and then sends no cancellation, so the cap is a signal here.)
 */
export async function callWithCaps(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  caps: CallCaps,
  opts: { signal?: AbortSignal; onProgress?: (p: Progress) => void; asTask?: boolean },
): Promise<CallToolResult> {
  const cap = new AbortController();
  const timer = setTimeout(
    () =>
      cap.abort(
        new McpError(
          ErrorCode.RequestTimeout,
          `Tool call exceeded the maximum total time (${caps.maxTotalMs} ms)`,
        ),
      ),
    caps.maxTotalMs,
  );
  const signal = opts.signal ? AbortSignal.any([opts.signal, cap.signal]) : cap.signal;
  try {
    if (opts.asTask) return await callAsTask(client, name, args, caps, signal, opts.onProgress);
    return (await client.callTool({ name, arguments: args }, undefined, {
      timeout: caps.timeoutMs,
      resetTimeoutOnProgress: true,
      onprogress: opts.onProgress,
      signal,
    })) as CallToolResult;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A tool whose execution requires a task (MCP tasks): tools/call creates the task, then its status is
 * polled at the server's interval (each status shown as progress) until the result is fetched. Stop or
 * the cap cancels the task on the server (tasks/cancel), not only the poll.
 */
async function callAsTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  caps: CallCaps,
  signal: AbortSignal,
  onProgress?: (p: Progress) => void,
): Promise<CallToolResult> {
  let taskId: string | undefined;
  let polls = 0;
  try {
    const stream = client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, {
      timeout: caps.timeoutMs,
      signal,
      task: { ttl: caps.maxTotalMs },
    });
    for await (const message of stream) {
      if (message.type === 'taskCreated') taskId = message.task.taskId;
      else if (message.type === 'taskStatus')
        onProgress?.({ progress: ++polls, message: message.task.statusMessage ?? message.task.status });
      else if (message.type === 'result') return message.result as CallToolResult;
      else throw message.error;
      signal.throwIfAborted();
    }
    throw new McpError(ErrorCode.InternalError, `Task for "${name}" ended without a result`);
  } catch (err) {
    if (!signal.aborted) throw err;
    if (taskId) await client.experimental.tasks.cancelTask(taskId, { timeout: 5_000 }).catch(() => {});
    throw signal.reason ?? err;
  }
}

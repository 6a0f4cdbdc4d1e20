import 'server-only';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallToolResult, ErrorCode, McpError, type Progress } from '@modelcontextprotocol/sdk/types.js';

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
  opts: { signal?: AbortSignal; onProgress?: (p: Progress) => void },
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
  try {
    return (await client.callTool({ name, arguments: args }, undefined, {
      timeout: caps.timeoutMs,
      resetTimeoutOnProgress: true,
      onprogress: opts.onProgress,
      signal: opts.signal ? AbortSignal.any([opts.signal, cap.signal]) : cap.signal,
    })) as CallToolResult;
  } finally {
    clearTimeout(timer);
  }
}

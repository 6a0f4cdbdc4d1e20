import 'server-only';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { BlockedAddressError } from '@/lib/net/guarded-fetch';
import type { ErrorKind } from '@/lib/schemas/mcp';

/**
 * A failure talking to an MCP server, classified for status pages and statistics. Its message is
 * the detail for admins (it may hold stderr or a URL); users see publicFailure's text instead.
 */
export class McpFailure extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly cause?: unknown,
    /** Set once the failure was logged for admins (see publicFailure); users are given this reference. */
    readonly ref?: string,
  ) {
    super(message);
    this.name = 'McpFailure';
  }
}

function httpStatus(err: unknown): number | undefined {
  if (err instanceof StreamableHTTPError || err instanceof SseError) return err.code;
  return undefined;
}

/** The message, with the cause's when the error only wraps it ("fetch failed" → why it failed). */
function messageOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof Error && !err.message.includes(cause.message)
    ? `${err.message}: ${cause.message}`
    : err.message;
}

/**
 * An McpFailure from any copy of this module: Next bundles the pool (one per process, lib/process-state.ts) and
 * each route into separate module graphs, so a failure the pool throws fails `instanceof` in a route.
 */
function isMcpFailure(err: unknown): err is McpFailure {
  return (
    err instanceof McpFailure ||
    (err instanceof Error &&
      err.name === 'McpFailure' &&
      typeof (err as { kind?: unknown }).kind === 'string')
  );
}

/** Maps anything thrown by the SDK, a transport or a child process to a kind and a readable message. */
export function classifyError(err: unknown): McpFailure {
  if (isMcpFailure(err)) return err;
  const message = messageOf(err);
  if (err instanceof UnauthorizedError) return new McpFailure('auth', `Unauthorized: ${message}`, err);
  const status = httpStatus(err);
  if (status === 401 || status === 403)
    return new McpFailure('auth', `HTTP ${status}: the server refused our credentials`, err);
  if (err instanceof McpError) {
    if (err.code === ErrorCode.RequestTimeout) return new McpFailure('timeout', message, err);
    if (err.code === ErrorCode.ConnectionClosed) return new McpFailure('connection', message, err);
    return new McpFailure('protocol', message, err);
  }
  if (status !== undefined) return new McpFailure('connection', `HTTP ${status}: ${message}`, err);
  if (/timed? ?out/i.test(message)) return new McpFailure('timeout', message, err);
  return new McpFailure('connection', message, err);
}

/**
 * The request failed because the connection did (the peer closed it, the network failed, HTTP 5xx,
 * or the server forgot our session) — not because of what the server answered, which leaves it usable.
 */
export function isConnectionLost(err: unknown): boolean {
  if (err instanceof McpError) return err.code === ErrorCode.ConnectionClosed;
  if (isSessionExpired(err)) return true;
  const status = httpStatus(err) ?? legacyPostStatus(err);
  if (status !== undefined) return status >= 500;
  return (
    (err instanceof TypeError && /fetch failed/i.test(err.message)) || err instanceof BlockedAddressError
  );
}

/**
 * The status of a failed POST over legacy SSE: SSEClientTransport.send throws a plain Error
 * "Error POSTing to endpoint (HTTP 404): …", so the status is only in its message.
 */
function legacyPostStatus(err: unknown): number | undefined {
  if (!(err instanceof Error) || err instanceof StreamableHTTPError) return undefined;
  const match = /^Error POSTing to endpoint \(HTTP (\d{3})\)/.exec(err.message);
  return match ? Number(match[1]) : undefined;
}

/**
 * The server refused a request carrying our session id because it does not know the session (it
 * restarted, or expired it), so it did not process the request. The spec says 404; many servers
 * (the SDK's own examples among them) answer 400 "Bad Request: No valid session ID provided" instead,
 * so a 400 counts when its body speaks of the session. Over legacy SSE the session is the event
 * stream, and a POST to the endpoint of a session the server no longer has is answered 404.
 */
export function isSessionExpired(err: unknown): boolean {
  if (err instanceof StreamableHTTPError)
    return err.code === 404 || (err.code === 400 && /session/i.test(err.message));
  return legacyPostStatus(err) === 404;
}

import { AppError } from '@/lib/errors';
import type { PromptInfo } from '@/lib/mcp/context-requests';

/**
 * prompts/get as a user's request: an unknown prompt is a 404 and a missing or invalid argument a 400
 * naming it, never a 500. What the host can tell from the server's own prompt list is checked before
 * sending; what only the server can judge (an argument's value) comes back as a JSON-RPC error and is
 * mapped here (servers answer InvalidParams, -32602, both for an unknown prompt and for bad arguments).
 */

/** JSON-RPC error codes of MCP (the SDK's ErrorCode; read by value so any copy of the SDK matches). */
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const INVALID_REQUEST = -32600;

const MAX_REASON = 500;

/** Refuses a request the server's prompt list already tells is wrong: unknown prompt, missing or unknown argument. */
export function checkPromptRequest(
  server: string,
  prompt: Pick<PromptInfo, 'name' | 'arguments'> | undefined,
  name: string,
  args: Record<string, string>,
): void {
  if (!prompt) throw new AppError('not_found', `Server "${server}" has no prompt "${name}".`);
  const declared = prompt.arguments ?? [];
  const fields: Record<string, string> = {};
  for (const a of declared)
    if (a.required && !args[a.name]?.trim()) fields[`arguments.${a.name}`] = 'required';
  for (const key of Object.keys(args))
    if (!declared.some((a) => a.name === key)) fields[`arguments.${key}`] = 'not an argument of this prompt';
  const names = Object.keys(fields).map((k) => k.slice('arguments.'.length));
  if (!names.length) return;
  const missing = names.filter((n) => fields[`arguments.${n}`] === 'required');
  const unknown = names.filter((n) => !missing.includes(n));
  const parts = [
    ...(missing.length
      ? [`missing required argument${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`]
      : []),
    ...(unknown.length ? [`unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`] : []),
  ];
  throw new AppError('bad_request', `Prompt "${name}": ${parts.join('; ')}.`, fields);
}

/** The JSON-RPC error code of a failure (an McpError, or an McpFailure wrapping one as its cause). */
function rpcCode(err: unknown): number | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 3; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'number') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The server's own words, without the SDK's repeated "MCP error -32602:" prefixes, clipped. */
function reasonOf(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const bare = message.replace(/^(?:MCP error -?\d+:\s*)+/, '').trim();
  return bare.length > MAX_REASON ? `${bare.slice(0, MAX_REASON)}…` : bare;
}

/**
 * A server's refusal of prompts/get as the user's 4xx (the prompt is gone: 404; the arguments are
 * wrong: 400 naming those the reason names), or undefined when the failure is not the server's refusal.
 */
export function promptRefusal(
  err: unknown,
  server: string,
  prompt: Pick<PromptInfo, 'name' | 'arguments'>,
): AppError | undefined {
  const code = rpcCode(err);
  if (code === METHOD_NOT_FOUND) return new AppError('not_found', `Server "${server}" offers no prompts.`);
  if (code !== INVALID_PARAMS && code !== INVALID_REQUEST) return undefined;
  const reason = reasonOf(err);
  if (/\bnot found\b|\bdisabled\b/i.test(reason) && reason.includes(prompt.name))
    return new AppError('not_found', `Server "${server}" has no prompt "${prompt.name}": ${reason}`);
  const named = (prompt.arguments ?? []).filter((a) =>
    new RegExp(`(^|[^\\w])${a.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\w]|$)`).test(reason),
  );
  const fields = Object.fromEntries(named.map((a) => [`arguments.${a.name}`, 'invalid']));
  const which = named.length
    ? ` (argument${named.length > 1 ? 's' : ''} ${named.map((a) => a.name).join(', ')})`
    : '';
  return new AppError(
    'bad_request',
    `Server "${server}" refused prompt "${prompt.name}"${which}: ${reason}`,
    named.length ? fields : { arguments: 'invalid' },
  );
}

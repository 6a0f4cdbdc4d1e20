import 'server-only';
import { randomBytes } from 'node:crypto';
import { classifyError, McpFailure } from '@/lib/mcp/errors';
import { MASK } from '@/lib/mcp/mask';
import type { ErrorKind, McpServerConfig } from '@/lib/schemas/mcp';

/**
 * What users (and the model, and a tool card) are told about a failed MCP request, and the detail that
 * only admins see, under the reference both share.
 */
export type PublicFailure = {
  kind: ErrorKind;
  ref: string;
  /** For users and the model: a status by kind, the server's name and the reference; nothing of the host. */
  message: string;
  /** For admins: the raw message (stderr, URL, …) with configured secrets masked. */
  detail: string;
  /** The failure carrying the reference and the masked detail, to rethrow. */
  failure: McpFailure;
};

/** One failure as the server's logs page lists it. */
export type FailureNote = { ref: string; at: string; kind: ErrorKind; detail: string };

/** The last failures of one server, newest last (kept with its connection, like its stderr tail). */
export class FailureLog {
  private notes: FailureNote[] = [];

  constructor(private readonly max = 50) {}

  push(note: FailureNote): void {
    this.notes.push(note);
    if (this.notes.length > this.max) this.notes.shift();
  }

  list(): FailureNote[] {
    return [...this.notes];
  }
}

/** Shorter secrets are not masked: they would mangle ordinary words (an env flag "1", "true"). */
const MIN_SECRET_LENGTH = 6;
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi;
const URL_QUERY = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s?#]*)\?[^\s#]*/gi;

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The values of a config that are never shown: env and header values (and their words), the URL's userinfo and query values. */
export function configSecrets(config: McpServerConfig): string[] {
  if (config.transport === 'stdio') return Object.values(config.env);
  if (config.transport === 'builtin') return [];
  const url = new URL(config.url);
  const query = url.search
    .slice(1)
    .split('&')
    .filter((pair) => pair.includes('='))
    .map((pair) => pair.slice(pair.indexOf('=') + 1));
  const headers = Object.values(config.headers).flatMap((v) => [v, ...v.split(/\s+/)]);
  const oauth = config.oauth?.clientSecret ? [config.oauth.clientSecret] : [];
  return [
    ...headers,
    ...oauth,
    url.username,
    url.password,
    ...[...query, url.username, url.password].map(decoded),
  ];
}

/** configSecrets, or none for a config whose URL does not parse (it never connects, so it logs nothing). */
export function secretsOf(config: McpServerConfig): string[] {
  try {
    return configSecrets(config);
  } catch {
    return [];
  }
}

/** Text with each secret, and any URL's userinfo and query string, replaced by the mask. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  const longestFirst = [...new Set(secrets)]
    .filter((s) => s.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of longestFirst) out = out.split(secret).join(MASK);
  return out.replace(URL_USERINFO, `$1${MASK}@`).replace(URL_QUERY, `$1?${MASK}`);
}

const STATUS: Record<Exclude<ErrorKind, 'protocol'>, string> = {
  connection: 'is unavailable (no connection); try again later',
  timeout: 'timed out; try again later',
  auth: "is unavailable: it did not accept the app's credentials; an admin needs to check it",
};

function userMessage(server: string, kind: ErrorKind, detail: string, ref: string): string {
  // A protocol error is the server's own answer to the request (unknown prompt, invalid arguments,
  // a result that breaks its schema), like a tool's error result: its text helps and holds nothing of the host.
  if (kind === 'protocol')
    return `Server "${server}" answered with an error: ${detail.slice(0, 500)} (ref ${ref})`;
  return `Server "${server}" ${STATUS[kind]} (ref ${ref}).`;
}

/**
 * Turns any failure of an MCP request into what users may see: a status by kind naming the server, with
 * a short reference. Host-level detail (a child's stderr, a URL with its credentials, a transport's raw
 * message) is logged under that reference, secrets masked, and kept in `log` for the admin's logs page.
 * A failure that already has a reference keeps it and is not logged again.
 */
export function publicFailure(
  server: string,
  err: unknown,
  ctx: { secrets?: readonly string[]; log?: FailureLog } = {},
): PublicFailure {
  const classified = classifyError(err);
  if (classified.ref) {
    const { kind, ref, message: detail } = classified;
    return { kind, ref, detail, message: userMessage(server, kind, detail, ref), failure: classified };
  }
  const ref = randomBytes(4).toString('hex');
  const { kind } = classified;
  const detail = scrubSecrets(classified.message, ctx.secrets ?? []).slice(0, 2000);
  console.error(`[mcp] server "${server}": ${kind} failure, ref ${ref}: ${detail}`);
  ctx.log?.push({ ref, at: new Date().toISOString(), kind, detail });
  // Without the raw error as its cause: whatever logs or shows this failure later sees the masked detail only.
  const failure = new McpFailure(kind, detail, undefined, ref);
  return { kind, ref, detail, message: userMessage(server, kind, detail, ref), failure };
}

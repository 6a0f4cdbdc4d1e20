import 'server-only';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getDb } from '@/db/client';
import { getMcpServerId } from '@/db/queries/mcp-servers';
import { getUserSecrets } from '@/db/queries/mcp-user-secrets';
import type { Principal } from '@/lib/access';
import { getEnv } from '@/lib/env';
import { McpFailure } from '@/lib/mcp/errors';
import { ensurePrivateDir } from '@/lib/private-files';
import type { UserSetup } from '@/lib/mcp/pool';
import type { McpServerConfig } from '@/lib/schemas/mcp';
import { oauthProvider } from '@/app/_server/mcp-oauth';

/** A user's own folder for a per-user stdio server: under the data folder, never the app's checkout. */
export function userServerDir(userId: string, server: string): string {
  return join(getEnv().dataDir, 'mcp-users', userId, server);
}

/** The names a user still has to supply before the server can start for them. */
export function missingUserValues(config: McpServerConfig, supplied: Record<string, string>): string[] {
  return config.userValues.filter((key) => !supplied[key]);
}

/**
 * The pool's per-user setup (lib/mcp/pool.ts UserSetup): a per-user stdio child runs in the user's
 * own folder unless the admin set `cwd`, and every value the admin marked "each user supplies this"
 * comes from the user's stored (sealed) values; without them the server does not start for the user.
 * A remote server gets the user's own OAuth client (app/_server/mcp-oauth.ts).
 */
export function userSetup(config: McpServerConfig, user: Principal): ReturnType<UserSetup> {
  if (config.transport === 'builtin') return { config };
  const id = getMcpServerId(getDb(), config.name);
  if (!id) throw new McpFailure('connection', `Server "${config.name}" is not available.`);
  let supplied: Record<string, string> = {};
  if (config.userValues.length) {
    supplied = getUserSecrets(getDb(), user.id, id, 'value');
    const missing = missingUserValues(config, supplied);
    if (missing.length)
      throw new McpFailure(
        'auth',
        `Server "${config.name}" needs your ${missing.join(', ')}: enter ${missing.length > 1 ? 'them' : 'it'} in the Tools menu first.`,
      );
  }
  const own = Object.fromEntries(config.userValues.map((key) => [key, supplied[key] as string]));
  if (config.transport === 'stdio') {
    if (config.cwd) return { config: { ...config, env: { ...config.env, ...own } } };
    // The user's own folder is also the first root the server is given (MCP roots).
    const cwd = userServerDir(user.id, config.name);
    ensurePrivateDir(cwd);
    const roots = [pathToFileURL(cwd).href, ...(config.roots ?? [])];
    return { config: { ...config, cwd, roots, env: { ...config.env, ...own } } };
  }
  // A remote server signs each user in with their own OAuth tokens (used only when it asks: a 401).
  const remote = { ...config, headers: { ...config.headers, ...own } };
  return { config: remote, authProvider: oauthProvider(user.id, id, remote) };
}

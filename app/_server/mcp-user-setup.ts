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
 * comes from the user's stored (sealed) values, read when the connection starts; without them the
 * server does not start for the user. A remote server gets the user's own OAuth client
 * (app/_server/mcp-oauth.ts).
 */
export function userSetup(config: McpServerConfig, user: Principal): ReturnType<UserSetup> {
  if (config.transport === 'builtin') return { config };
  let id: Promise<string> | undefined;
  const serverId = () => {
    id ??= getMcpServerId(getDb(), config.name).then((found) => {
      if (!found) throw new McpFailure('connection', `Server "${config.name}" is not available.`);
      return found;
    });
    return id;
  };
  /** The user's own values, all of them, or an McpFailure naming what is missing. */
  const ownValues = async (): Promise<Record<string, string>> => {
    if (!config.userValues.length) return {};
    const supplied = await getUserSecrets(getDb(), user.id, await serverId(), 'value');
    const missing = missingUserValues(config, supplied);
    if (missing.length)
      throw new McpFailure(
        'auth',
        `Server "${config.name}" needs your ${missing.join(', ')}: enter ${missing.length > 1 ? 'them' : 'it'} in the Tools menu first.`,
      );
    return Object.fromEntries(config.userValues.map((key) => [key, supplied[key] as string]));
  };
  if (config.transport === 'stdio') {
    const withEnv = (base: typeof config) => async () => ({
      ...base,
      env: { ...base.env, ...(await ownValues()) },
    });
    if (config.cwd) return { config, prepare: withEnv(config) };
    // The user's own folder is also the first root the server is given (MCP roots).
    const cwd = userServerDir(user.id, config.name);
    ensurePrivateDir(cwd);
    const roots = [pathToFileURL(cwd).href, ...(config.roots ?? [])];
    const own = { ...config, cwd, roots };
    return { config: own, prepare: withEnv(own) };
  }
  // A remote server signs each user in with their own OAuth tokens (used only when it asks: a 401).
  return {
    config,
    prepare: async () => ({ ...config, headers: { ...config.headers, ...(await ownValues()) } }),
    authProvider: oauthProvider(user.id, serverId, config),
  };
}

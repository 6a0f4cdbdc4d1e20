import 'server-only';
import { closeUserConnections } from '@/app/_server/mcp';
import * as z from '@/lib/zod';
import { getDb } from '@/db/client';
import { getMcpServerId } from '@/db/queries/mcp-servers';
import { getUserSecrets, setUserSecrets } from '@/db/queries/mcp-user-secrets';
import { forgetTokens, hasSignIn } from '@/app/_server/mcp-oauth';
import { missingUserValues } from '@/app/_server/mcp-user-setup';
import type { Principal } from '@/lib/access';
import { AppError, notFound } from '@/lib/errors';
import { getPool, type ServerTools } from '@/lib/mcp/pool';
import type { McpServerConfig, RemoteConfig } from '@/lib/schemas/mcp';

/** SPEC §7.2 `GET /api/mcp/connections` item, plus what the user can do about it. */
export type ConnectionItem = {
  server: string;
  scope: McpServerConfig['scope'];
  status: 'ready' | 'needs-auth' | 'connecting' | 'error';
  error?: string;
  /** Values the admin marked "each user supplies this": which this user has entered (never the values). */
  values?: Array<{ key: string; set: boolean }>;
  /** A per-user remote server: whether the user holds a sign-in (tokens) for it. */
  signedIn?: boolean;
};

/** The server as this user may use it, or a 404: to a user outside its allow list it does not exist. */
export async function usableServer(
  user: Principal,
  server: string,
): Promise<{ id: string; config: McpServerConfig }> {
  const config = getPool()
    .forUser(user)
    .servers()
    .find((c) => c.name === server);
  const id = config && (await getMcpServerId(getDb(), server));
  if (!config || !id) throw notFound(`Server "${server}" is not available.`);
  return { id, config };
}

/** One server's state for one user, from their own connection (or the shared one). */
export async function connectionState(user: Principal, config: McpServerConfig): Promise<ConnectionItem> {
  const item: ConnectionItem = { server: config.name, scope: config.scope, status: 'ready' };
  const remote = config.transport === 'http' || config.transport === 'sse';
  const id =
    (config.scope === 'user' && remote) || config.userValues.length
      ? await getMcpServerId(getDb(), config.name)
      : null;
  if (config.scope === 'user' && remote)
    item.signedIn = Boolean(id && (await hasSignIn(user.id, id, config)));
  if (config.userValues.length) {
    const supplied = id ? await getUserSecrets(getDb(), user.id, id, 'value') : {};
    item.values = config.userValues.map((key) => ({ key, set: Boolean(supplied[key]) }));
    const missing = missingUserValues(config, supplied);
    if (missing.length)
      return { ...item, status: 'needs-auth', error: `Enter your ${missing.join(', ')} to use it.` };
  }
  const status = getPool().forUser(user).status(config.name);
  if (!status) return item;
  if (status.status === 'connecting') return { ...item, status: 'connecting' };
  if (status.status === 'error') {
    if (status.lastError?.kind === 'auth')
      return { ...item, status: 'needs-auth', error: `Sign in to ${config.name} to use it.` };
    return { ...item, status: 'error', error: `Server "${config.name}" is unavailable; try again later.` };
  }
  return item;
}

/** The servers this user may use, each with the state of their connection. */
export async function listConnections(user: Principal): Promise<{ items: ConnectionItem[] }> {
  return {
    items: await Promise.all(
      getPool()
        .forUser(user)
        .servers()
        .map((config) => connectionState(user, config)),
    ),
  };
}

export const UserValuesSchema = z
  .object({ values: z.record(z.string().max(128), z.string().max(8192).nullable()) })
  .strict();

/**
 * Stores the values a user supplies for a server (write-only: they are never returned), then closes
 * the user's connection so the next use starts with them. Only names the admin marked may be set.
 */
export async function saveUserValues(
  user: Principal,
  server: string,
  values: Record<string, string | null>,
): Promise<ConnectionItem> {
  const { id, config } = await usableServer(user, server);
  const unknown = Object.keys(values).filter((k) => !config.userValues.includes(k));
  if (unknown.length)
    throw new AppError(
      'bad_request',
      `Server "${server}" takes no value named ${unknown.join(', ')}.`,
      Object.fromEntries(unknown.map((k) => [`values.${k}`, 'is not a value this server asks for'])),
    );
  const bad = Object.entries(values).filter(([, v]) => v !== null && (!v.trim() || /[\r\n\0]/.test(v)));
  if (bad.length)
    throw new AppError(
      'bad_request',
      `${bad.map(([k]) => k).join(', ')}: enter a value on one line (or remove it).`,
      Object.fromEntries(bad.map(([k]) => [`values.${k}`, 'must be one non-empty line'])),
    );
  await setUserSecrets(getDb(), user.id, id, 'value', values);
  await closeUserConnections(user.id, server);
  return connectionState(user, config);
}

/** Forgets the user's sign-in (tokens) for a server and closes their connection. */
export async function forgetConnection(user: Principal, server: string): Promise<{ forgotten: true }> {
  const { id } = await usableServer(user, server);
  await forgetTokens(user.id, id);
  await closeUserConnections(user.id, server);
  return { forgotten: true };
}

/** A per-user remote server the user may use: the only kind a user signs in to. */
export async function signInServer(
  user: Principal,
  server: string,
): Promise<{ id: string; config: RemoteConfig }> {
  const { id, config } = await usableServer(user, server);
  if (config.transport === 'stdio' || config.transport === 'builtin' || config.scope !== 'user')
    throw new AppError('bad_request', `Server "${server}" does not use a sign-in of its own.`);
  return { id, config };
}

/** Servers of this turn whose tools are left out until the user signs in or supplies a value. */
export async function connectNotices(user: Principal, catalog: ServerTools[]): Promise<string[]> {
  const configs = new Map(
    getPool()
      .forUser(user)
      .servers()
      .map((c) => [c.name, c]),
  );
  const notices = await Promise.all(
    catalog.map(async (entry) => {
      const config = configs.get(entry.server);
      if (!('error' in entry) || entry.error.kind !== 'auth' || !config) return [];
      const state = await connectionState(user, config);
      return state.status === 'needs-auth'
        ? [
            `The tools of ${entry.server} are not available: ${state.error} Open the Tools menu to connect it.`,
          ]
        : [];
    }),
  );
  return notices.flat();
}

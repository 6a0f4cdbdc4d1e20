import 'server-only';
import { getDb } from '@/db/client';
import { listMcpServers } from '@/db/queries/mcp-servers';
import { getSetting } from '@/db/queries/settings';
import { countUsers } from '@/db/queries/users';
import { modelSources } from '@/app/_server/model-sources';
import type { SessionUser } from '@/app/_server/session';
import { listModels } from '@/lib/providers';

/** The first-run checklist's steps, each done or not. */
export type SetupStatus = { provider: boolean; mcp: boolean; users: boolean };

/**
 * What an admin has set up: a model provider (any model to answer), an MCP server of their own (the
 * built-in ones do not count), and other people (a second account, or sign-up open).
 */
export async function setupStatus(admin: SessionUser): Promise<SetupStatus> {
  const db = getDb();
  return {
    provider: listModels(await modelSources(), admin).length > 0,
    mcp: (await listMcpServers(db)).some((s) => s.config.transport !== 'builtin'),
    users: (await countUsers(db)) > 1 || (await getSetting(db, 'signupOpen')),
  };
}

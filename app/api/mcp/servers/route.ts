import { getDb } from '@/db/client';
import { listMcpServers } from '@/db/queries/mcp-servers';
import { serverStats } from '@/db/queries/tool-calls';
import { createServer, presentServer } from '@/app/_server/mcp-servers';
import { audit } from '@/app/_server/audit';
import { liveStatuses } from '@/app/_server/mcp-status';
import { requireAdmin } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';
import * as z from '@/lib/zod';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  await requireAdmin(req);
  const stats = await serverStats(getDb());
  const records = await listMcpServers(getDb());
  // Every server process's connections, asked once for the whole list.
  const live = await liveStatuses(records.map((r) => r.config.name));
  return Response.json({
    items: await Promise.all(records.map((r) => presentServer(r, stats, live))),
    nextCursor: null,
  });
});

export const POST = route(async (req) => {
  const admin = await requireAdmin(req);
  const created = await createServer(await readJson(req, z.unknown()));
  await audit(
    admin,
    'mcp.server.create',
    created.name,
    'ok',
    created.transport === 'stdio' ? [created.command, ...created.args].join(' ') : undefined,
  );
  return Response.json(created, { status: 201 });
});

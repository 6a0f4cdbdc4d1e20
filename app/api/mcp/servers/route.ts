import { getDb } from '@/db/client';
import { listMcpServers } from '@/db/queries/mcp-servers';
import { serverStats } from '@/db/queries/tool-calls';
import { createServer, presentServer } from '@/app/_server/mcp-servers';
import { audit } from '@/app/_server/audit';
import { requireAdmin } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';
import * as z from '@/lib/zod';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  await requireAdmin(req);
  const stats = await serverStats(getDb());
  return Response.json({
    items: await Promise.all((await listMcpServers(getDb())).map((r) => presentServer(r, stats))),
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

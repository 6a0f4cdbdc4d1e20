import * as z from '@/lib/zod';
import { getDb } from '@/db/client';
import { deleteMcpServer } from '@/db/queries/mcp-servers';
import { serverDetail } from '@/app/_server/mcp-admin';
import { syncPool } from '@/app/_server/mcp';
import { updateServer } from '@/app/_server/mcp-servers';
import { audit } from '@/app/_server/audit';
import { requireAdmin } from '@/app/_server/session';
import { notFound } from '@/lib/errors';
import { readIfMatch, readJson, route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ id: string }> };

export const GET = route<Ctx>(async (req, { params }) => {
  const admin = await requireAdmin(req);
  return Response.json(await serverDetail((await params).id, admin));
});

export const PATCH = route<Ctx>(async (req, { params }) => {
  const admin = await requireAdmin(req);
  const ifMatch = readIfMatch(req);
  const updated = await updateServer((await params).id, await readJson(req, z.unknown()), ifMatch);
  await audit(admin, 'mcp.server.update', updated.name);
  return Response.json(updated);
});

export const DELETE = route<Ctx>(async (req, { params }) => {
  const admin = await requireAdmin(req);
  const { id } = await params;
  if (!(await deleteMcpServer(getDb(), id))) throw notFound('Server not found.');
  await audit(admin, 'mcp.server.delete', id);
  await syncPool();
  return new Response(null, { status: 204 });
});

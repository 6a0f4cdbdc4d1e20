import * as z from '@/lib/zod';
import { importServers } from '@/app/_server/mcp-servers';
import { audit } from '@/app/_server/audit';
import { admitImport } from '@/app/_server/import-limit';
import { requireAdmin } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Claude Desktop `{"mcpServers": {…}}`; with `?dryRun=1` nothing is applied (the UI's preview). Masked
 * values keep the stored secrets (`kept`). Rate limited per admin before the body is read (413 over 1 MB).
 */
export const POST = route(async (req) => {
  const admin = await requireAdmin(req);
  await admitImport(admin.id);
  const dryRun = new URL(req.url).searchParams.get('dryRun') === '1';
  const result = await importServers(await readJson(req, z.unknown()), dryRun);
  if (!dryRun)
    await audit(admin, 'mcp.server.import', [...result.added, ...result.updated].join(', ') || null);
  return Response.json(result);
});

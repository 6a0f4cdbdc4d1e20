import { requireServer } from '@/app/_server/mcp-admin';
import { testSavedServer } from '@/app/_server/mcp-test';
import { audit } from '@/app/_server/audit';
import { requireAdmin } from '@/app/_server/session';
import { route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const admin = await requireAdmin(req);
  const record = await requireServer((await params).id);
  const result = await testSavedServer(record);
  await audit(admin, 'mcp.server.test', record.config.name, result.ok ? 'ok' : 'failed', result.error);
  return Response.json(result);
});

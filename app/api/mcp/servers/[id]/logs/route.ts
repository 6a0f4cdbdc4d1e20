import { serverLogs } from '@/app/_server/mcp-logs';
import { requireAdmin } from '@/app/_server/session';
import { route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  await requireAdmin(req);
  return Response.json(await serverLogs((await params).id));
});

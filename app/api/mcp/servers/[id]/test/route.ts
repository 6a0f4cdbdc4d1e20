import { requireServer } from '@/app/_server/mcp-admin';
import { testServerConfig } from '@/app/_server/mcp-test';
import { requireAdmin } from '@/app/_server/session';
import { route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  await requireAdmin(req);
  return Response.json(await testServerConfig(requireServer((await params).id).config));
});

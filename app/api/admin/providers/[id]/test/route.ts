import { testProvider } from '@/app/_server/providers-admin';
import { requireAdmin } from '@/app/_server/session';
import { readOptionalJson, route } from '@/lib/http';
import { ProviderTestSchema } from '@/lib/schemas/providers';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  await requireAdmin(req);
  const body = await readOptionalJson(req, ProviderTestSchema);
  return Response.json(await testProvider((await params).id, body.model));
});

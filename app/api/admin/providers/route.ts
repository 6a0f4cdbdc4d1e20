import { addProvider, providersOverview } from '@/app/_server/providers-admin';
import { requireAdmin } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';
import { ProviderCreateSchema } from '@/lib/schemas/providers';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  await requireAdmin(req);
  return Response.json(providersOverview());
});

export const POST = route(async (req) => {
  await requireAdmin(req);
  return Response.json(addProvider(await readJson(req, ProviderCreateSchema)), { status: 201 });
});

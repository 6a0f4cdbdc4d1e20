import { addProvider, providersOverview } from '@/app/_server/providers-admin';
import { audit } from '@/app/_server/audit';
import { invalidateProviders } from '@/app/_server/model-sources';
import { requireAdmin } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';
import { ProviderCreateSchema } from '@/lib/schemas/providers';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  await requireAdmin(req);
  return Response.json(await providersOverview());
});

export const POST = route(async (req) => {
  const admin = await requireAdmin(req);
  const created = await addProvider(await readJson(req, ProviderCreateSchema));
  invalidateProviders();
  await audit(admin, 'provider.create', created.name);
  return Response.json(created, { status: 201 });
});

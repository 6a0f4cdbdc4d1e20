import { getDb } from '@/db/client';
import { deleteProvider } from '@/db/queries/providers';
import { editProvider } from '@/app/_server/providers-admin';
import { audit } from '@/app/_server/audit';
import { invalidateProviders } from '@/app/_server/model-sources';
import { requireAdmin } from '@/app/_server/session';
import { notFound } from '@/lib/errors';
import { readIfMatch, readJson, route } from '@/lib/http';
import { ProviderPatchSchema } from '@/lib/schemas/providers';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ id: string }> };

export const PATCH = route<Ctx>(async (req, { params }) => {
  const admin = await requireAdmin(req);
  const ifMatch = readIfMatch(req);
  const updated = await editProvider((await params).id, await readJson(req, ProviderPatchSchema), ifMatch);
  invalidateProviders();
  await audit(admin, 'provider.update', updated.name);
  return Response.json(updated);
});

export const DELETE = route<Ctx>(async (req, { params }) => {
  const admin = await requireAdmin(req);
  const { id } = await params;
  if (!(await deleteProvider(getDb(), id))) throw notFound('Provider not found.');
  invalidateProviders();
  await audit(admin, 'provider.delete', id);
  return new Response(null, { status: 204 });
});

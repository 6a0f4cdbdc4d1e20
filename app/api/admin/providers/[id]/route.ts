import { getDb } from '@/db/client';
import { deleteProvider } from '@/db/queries/providers';
import { editProvider } from '@/app/_server/providers-admin';
import { requireAdmin } from '@/app/_server/session';
import { notFound } from '@/lib/errors';
import { readJson, route } from '@/lib/http';
import { ProviderPatchSchema } from '@/lib/schemas/providers';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ id: string }> };

export const PATCH = route<Ctx>(async (req, { params }) => {
  await requireAdmin(req);
  return Response.json(editProvider((await params).id, await readJson(req, ProviderPatchSchema)));
});

export const DELETE = route<Ctx>(async (req, { params }) => {
  await requireAdmin(req);
  if (!deleteProvider(getDb(), (await params).id)) throw notFound('Provider not found.');
  return new Response(null, { status: 204 });
});

import { fetchModels } from '@/app/_server/providers-admin';
import { requireAdmin } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';
import { ModelsQuerySchema } from '@/lib/schemas/providers';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = route(async (req) => {
  await requireAdmin(req);
  return Response.json(await fetchModels(await readJson(req, ModelsQuerySchema)));
});

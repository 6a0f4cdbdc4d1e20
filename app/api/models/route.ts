import { requireUser } from '@/app/_server/session';
import { modelSources } from '@/app/_server/model-sources';
import { route } from '@/lib/http';
import { listModels } from '@/lib/providers';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  const user = await requireUser(req);
  return Response.json({ items: listModels(await modelSources(), user) });
});

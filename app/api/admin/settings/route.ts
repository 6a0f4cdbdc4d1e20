import { getDb } from '@/db/client';
import { getSettings, updateSettings } from '@/db/queries/settings';
import { requireAdmin } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';
import { SettingsPatchSchema } from '@/lib/schemas/settings';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  await requireAdmin(req);
  return Response.json(getSettings(getDb()));
});

export const PATCH = route(async (req) => {
  await requireAdmin(req);
  const patch = await readJson(req, SettingsPatchSchema);
  return Response.json(updateSettings(getDb(), patch));
});

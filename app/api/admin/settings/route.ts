import { getDb } from '@/db/client';
import { getSettings, updateSettings } from '@/db/queries/settings';
import { audit } from '@/app/_server/audit';
import { invalidateSettings } from '@/app/_server/hot-cache';
import { requireAdmin } from '@/app/_server/session';
import { assertPasswordSignInCanBeOff } from '@/app/_server/sso';
import { readJson, route } from '@/lib/http';
import { SettingsPatchSchema } from '@/lib/schemas/settings';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  await requireAdmin(req);
  return Response.json(await getSettings(getDb()));
});

export const PATCH = route(async (req) => {
  const admin = await requireAdmin(req);
  const patch = await readJson(req, SettingsPatchSchema);
  if (patch.passwordSignIn === false && (await getSettings(getDb())).passwordSignIn) {
    try {
      await assertPasswordSignInCanBeOff();
    } catch (err) {
      await audit(admin, 'settings.update', null, 'denied', err instanceof Error ? err.message : undefined);
      throw err;
    }
  }
  const next = await updateSettings(getDb(), patch);
  invalidateSettings();
  await audit(admin, 'settings.update', null, 'ok', JSON.stringify(patch));
  return Response.json(next);
});

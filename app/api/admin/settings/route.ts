import { getDb } from '@/db/client';
import { getSettings, getSettingsVersioned, updateSettings } from '@/db/queries/settings';
import { audit } from '@/app/_server/audit';
import { invalidateSettings } from '@/app/_server/hot-cache';
import { requireAdmin } from '@/app/_server/session';
import { assertPasswordSignInCanBeOff, ssoChangedMeanwhile, ssoUnchangedSince } from '@/app/_server/sso';
import { changedSince } from '@/lib/errors';
import { readIfMatch, readJson, route } from '@/lib/http';
import { SettingsPatchSchema } from '@/lib/schemas/settings';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The settings and their version, `updatedAt` (what the settings form sends back as If-Match). */
export const GET = route(async (req) => {
  await requireAdmin(req);
  return Response.json(await getSettingsVersioned(getDb()));
});

/**
 * Writes the keys given. With If-Match (the settings form: the updatedAt it was opened at) a 409 that
 * writes nothing when the settings were saved since; without it (API clients) it writes as before.
 */
export const PATCH = route(async (req) => {
  const admin = await requireAdmin(req);
  const ifMatch = readIfMatch(req);
  const patch = await readJson(req, SettingsPatchSchema);
  // Password sign-in goes off only after its checks, and only while the provider is still the one checked.
  let checked: string | undefined;
  if (patch.passwordSignIn === false && (await getSettings(getDb())).passwordSignIn) {
    try {
      checked = await assertPasswordSignInCanBeOff();
    } catch (err) {
      await audit(admin, 'settings.update', null, 'denied', err instanceof Error ? err.message : undefined);
      throw err;
    }
  }
  const guard = checked === undefined ? undefined : ssoUnchangedSince(checked);
  const written = await updateSettings(getDb(), patch, ifMatch, guard);
  if (written === 'row-changed') {
    const refused = ssoChangedMeanwhile();
    await audit(admin, 'settings.update', null, 'denied', refused.message);
    throw refused;
  }
  if (!written) throw changedSince('settings');
  invalidateSettings();
  await audit(admin, 'settings.update', null, 'ok', JSON.stringify(patch));
  return Response.json(await getSettingsVersioned(getDb()));
});

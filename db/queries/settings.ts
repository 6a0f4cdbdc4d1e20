import 'server-only';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { first, q, transaction } from '@/db/run';
import { settings } from '@/db/tables';
import { type AppSettings, AppSettingsSchema } from '@/lib/schemas/settings';

/** All settings, with defaults for keys never written. */
export async function getSettings(db: Db): Promise<AppSettings> {
  const rows = await db.select().from(settings);
  return AppSettingsSchema.parse(Object.fromEntries(rows.map((r) => [r.key, r.value])));
}

export async function updateSettings(db: Db, patch: Partial<AppSettings>): Promise<AppSettings> {
  await transaction(db, function* (tx) {
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      yield* q(
        tx
          .insert(settings)
          .values({ key, value })
          .onConflictDoUpdate({ target: settings.key, set: { value } }),
      );
    }
  });
  return getSettings(db);
}

export async function getSetting<K extends keyof AppSettings>(db: Db, key: K): Promise<AppSettings[K]> {
  const row = first(await db.select().from(settings).where(eq(settings.key, key)));
  return AppSettingsSchema.shape[key].parse(row?.value) as AppSettings[K];
}

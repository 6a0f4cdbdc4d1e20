import 'server-only';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { settings } from '@/db/schema';
import { type AppSettings, AppSettingsSchema } from '@/lib/schemas/settings';

/** All settings, with defaults for keys never written. */
export function getSettings(db: Db): AppSettings {
  const rows = db.select().from(settings).all();
  return AppSettingsSchema.parse(Object.fromEntries(rows.map((r) => [r.key, r.value])));
}

export function updateSettings(db: Db, patch: Partial<AppSettings>): AppSettings {
  db.transaction((tx) => {
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      tx.insert(settings)
        .values({ key, value })
        .onConflictDoUpdate({ target: settings.key, set: { value } })
        .run();
    }
  });
  return getSettings(db);
}

export function getSetting<K extends keyof AppSettings>(db: Db, key: K): AppSettings[K] {
  const row = db.select().from(settings).where(eq(settings.key, key)).get();
  return AppSettingsSchema.shape[key].parse(row?.value) as AppSettings[K];
}

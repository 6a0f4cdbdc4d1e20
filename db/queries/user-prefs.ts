import 'server-only';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { first } from '@/db/run';
import { user } from '@/db/tables';
import { isLocale, type Locale } from '@/lib/i18n/locales';

/** The user's picked UI language, or null (follow the browser). */
export async function getUserLocale(db: Db, userId: string): Promise<Locale | null> {
  const row = first(await db.select({ locale: user.locale }).from(user).where(eq(user.id, userId)));
  return isLocale(row?.locale) ? row.locale : null;
}

export async function setUserLocale(db: Db, userId: string, locale: Locale | null): Promise<void> {
  await db.update(user).set({ locale, updatedAt: new Date() }).where(eq(user.id, userId));
}

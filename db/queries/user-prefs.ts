import 'server-only';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { user } from '@/db/schema';
import { isLocale, type Locale } from '@/lib/i18n/locales';

/** The user's picked UI language, or null (follow the browser). */
export function getUserLocale(db: Db, userId: string): Locale | null {
  const row = db.select({ locale: user.locale }).from(user).where(eq(user.id, userId)).get();
  return isLocale(row?.locale) ? row.locale : null;
}

export function setUserLocale(db: Db, userId: string, locale: Locale | null): void {
  db.update(user).set({ locale, updatedAt: new Date() }).where(eq(user.id, userId)).run();
}

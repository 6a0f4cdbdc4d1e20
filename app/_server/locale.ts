import 'server-only';
import { cookies, headers } from 'next/headers';
import { cache } from 'react';
import { getDb } from '@/db/client';
import { getUserLocale } from '@/db/queries/user-prefs';
import { getSessionUser } from '@/app/_server/session';
import { isLocale, LOCALE_COOKIE, type Locale, negotiateLocale } from '@/lib/i18n/locales';

/**
 * The UI language of this request: the signed-in user's pick, else the `locale` cookie (a pick made
 * while signed out, kept for the sign-in and share pages), else the browser's `Accept-Language`.
 * Once per request (React `cache`).
 */
export const requestLocale = cache(async (): Promise<Locale> => {
  const h = await headers();
  const user = await getSessionUser(h);
  const picked = user ? await getUserLocale(getDb(), user.id) : null;
  if (picked) return picked;
  const cookie = (await cookies()).get(LOCALE_COOKIE)?.value;
  if (isLocale(cookie)) return cookie;
  return negotiateLocale(h.get('accept-language'));
});

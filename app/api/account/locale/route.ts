import * as z from '@/lib/zod';
import { getDb } from '@/db/client';
import { setUserLocale } from '@/db/queries/user-prefs';
import { getSessionUser } from '@/app/_server/session';
import { LOCALE_COOKIE, LOCALES } from '@/lib/i18n/locales';
import { assertSameOrigin, readJson, route } from '@/lib/http';

const Body = z.object({ locale: z.enum(LOCALES).nullable() });

/**
 * PUT /api/account/locale `{ locale: "en" | "zh-CN" | null }`: the UI language. Stored for the signed-in
 * user (applied on every device they sign in on) and in a cookie (kept for the sign-in and share pages);
 * `null` goes back to following the browser. Signed out, only the cookie is set.
 */
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const PUT = route(async (req: Request) => {
  assertSameOrigin(req);
  const { locale } = await readJson(req, Body);
  const user = await getSessionUser(req.headers);
  if (user) await setUserLocale(getDb(), user.id, locale);
  const res = Response.json({ locale });
  const secure = new URL(req.url).protocol === 'https:' ? '; Secure' : '';
  res.headers.append(
    'Set-Cookie',
    locale
      ? `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`
      : `${LOCALE_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${secure}`,
  );
  return res;
});

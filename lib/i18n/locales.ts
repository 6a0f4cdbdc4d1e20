/** The UI languages (SPEC §7.4): English and Simplified Chinese. */
export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';
/** The cookie that carries a picked language (also for signed-out pages: sign-in, share). */
export const LOCALE_COOKIE = 'locale';
/** Each language's name in itself, for the language menu. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', 'zh-CN': '简体中文' };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** One of ours for a language tag: any Chinese → zh-CN (the only Chinese we have), any English → en. */
function match(tag: string): Locale | null {
  const primary = tag.toLowerCase().split('-')[0];
  if (primary === 'zh') return 'zh-CN';
  if (primary === 'en') return 'en';
  return null;
}

/**
 * The best of ours for an `Accept-Language` header (RFC 9110 §12.5.4: quality values, `*`), else the
 * default. Malformed entries are skipped, never thrown on.
 */
export function negotiateLocale(header: string | null | undefined): Locale {
  if (!header) return DEFAULT_LOCALE;
  const ranges = header
    .slice(0, 1000)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((r) => r.tag && r.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const r of ranges) {
    if (r.tag === '*') return DEFAULT_LOCALE;
    const found = match(r.tag);
    if (found) return found;
  }
  return DEFAULT_LOCALE;
}

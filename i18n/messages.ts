import type { Locale } from '@/lib/i18n/locales';

/** The message catalog of a language (messages/<locale>.json), loaded on demand. */
export async function loadMessages(locale: Locale): Promise<Record<string, unknown>> {
  switch (locale) {
    case 'zh-CN':
      return (await import('../messages/zh-CN.json')).default;
    default:
      return (await import('../messages/en.json')).default;
  }
}

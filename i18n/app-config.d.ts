// Typed messages: `t('key')` must name a key of messages/en.json (zh-CN.json is checked against it by
// lib/i18n/messages.test.ts), and locales are ours.
import type { Locale } from '@/lib/i18n/locales';
import type en from '../messages/en.json';

declare module 'next-intl' {
  interface AppConfig {
    Locale: Locale;
    Messages: typeof en;
  }
}

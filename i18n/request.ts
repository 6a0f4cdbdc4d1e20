// next-intl's per-request configuration (server components, route handlers via getTranslations).
import { getRequestConfig } from 'next-intl/server';
import { requestLocale } from '@/app/_server/locale';
import { loadMessages } from './messages';

export default getRequestConfig(async () => {
  const locale = await requestLocale();
  return { locale, messages: await loadMessages(locale) };
});

'use client';

import { useTranslations } from 'next-intl';
import { useEffect } from 'react';

/** The browser tab shows the conversation's title once it has messages (the previous title comes back after). */
export function useDocumentTitle(title: string, messageCount: number) {
  const appName = useTranslations('app')('name');
  useEffect(() => {
    if (!messageCount) return;
    const before = document.title;
    document.title = `${title} · ${appName}`;
    return () => {
      document.title = before;
    };
  }, [title, appName, messageCount]);
}

import { useTranslations } from 'next-intl';

/** On a message that came from an imported file (chat and share pages): it did not happen on this server. */
export function ImportedMark() {
  const t = useTranslations('imported');
  return (
    <span
      data-imported-mark
      title={t('title')}
      className="mb-1 inline-block rounded bg-violet-100 px-1.5 py-0.5 text-xs font-medium text-violet-800 dark:bg-violet-950 dark:text-violet-200"
    >
      {t('mark')}
    </span>
  );
}

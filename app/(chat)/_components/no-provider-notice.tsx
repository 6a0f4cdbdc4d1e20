import Link from 'next/link';
import { useTranslations } from 'next-intl';

/** No model to answer: an admin gets the way to add one, anyone else is told to ask an admin. */
export function NoProviderNotice({ admin }: { admin: boolean }) {
  const t = useTranslations('noProvider');
  return (
    <p
      role="status"
      data-no-provider
      className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
    >
      {t('message')}{' '}
      {admin
        ? t.rich('admin', {
            link: (chunks) => (
              <Link href="/admin/providers" className="font-medium underline">
                {chunks}
              </Link>
            ),
          })
        : t('user')}
    </p>
  );
}

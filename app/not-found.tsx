import { getTranslations } from 'next-intl/server';
import Link from 'next/link';

export default async function NotFound() {
  const t = await getTranslations('notFound');
  return (
    <main className="flex min-h-full flex-col items-center justify-center gap-3 p-6 text-center">
      <h1 className="text-2xl font-semibold">{t('title')}</h1>
      <p className="text-sm text-zinc-500">{t('body')}</p>
      <Link href="/" className="text-sm text-blue-600 underline">
        {t('back')}
      </Link>
    </main>
  );
}

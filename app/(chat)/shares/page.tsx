import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { requirePageUser } from '@/app/_server/page-user';
import { SharesList } from '../_components/shares-list';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('shares');
  return { title: t('title') };
}

/** The signed-in user's public links. */
export default async function SharesPage() {
  await requirePageUser();
  return (
    <div className="h-full overflow-y-auto">
      <SharesList />
    </div>
  );
}

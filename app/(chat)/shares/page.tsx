import type { Metadata } from 'next';
import { requirePageUser } from '@/app/_server/page-user';
import { SharesList } from '../_components/shares-list';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'My shared links' };

/** The signed-in user's public links. */
export default async function SharesPage() {
  await requirePageUser();
  return (
    <div className="h-full overflow-y-auto">
      <SharesList />
    </div>
  );
}

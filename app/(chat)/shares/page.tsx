import type { Metadata } from 'next';
import { SharesList } from '../_components/shares-list';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'My shared links' };

/** The signed-in user's public links; the (chat) layout already requires a session. */
export default function SharesPage() {
  return (
    <div className="h-full overflow-y-auto">
      <SharesList />
    </div>
  );
}

import { getDb } from '@/db/client';
import { listConversations } from '@/db/queries/conversations';
import { requirePageUser } from '@/app/_server/page-user';
import { Sidebar } from './_components/sidebar';

export const dynamic = 'force-dynamic';

export default async function ChatLayout({ children }: { children: React.ReactNode }) {
  const user = await requirePageUser();
  const page = await listConversations(getDb(), user.id, { limit: 30 });
  const initial = {
    items: page.items.map((c) => ({ id: c.id, title: c.title, updatedAt: c.updatedAt.toISOString() })),
    nextCursor: page.nextCursor,
  };
  return (
    <div className="flex h-dvh">
      <Sidebar initial={initial} user={{ name: user.name, email: user.email, role: user.role }} />
      <main className="min-w-0 flex-1">{children}</main>
    </div>
  );
}

import { NextIntlClientProvider } from 'next-intl';
import { getMessages } from 'next-intl/server';
import { requireAdminPage } from '@/app/_server/page-user';
import { AdminNav } from './_components/admin-nav';

export const dynamic = 'force-dynamic';

/** Everything under /admin: signed-in admins only; anyone else gets the plain 404 page. */
export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  await requireAdminPage();
  // The admin pages' client components also get the admin texts (the root layout leaves them out).
  return (
    <NextIntlClientProvider messages={await getMessages()}>
      <div className="flex min-h-dvh flex-col md:flex-row">
        <AdminNav />
        <main className="min-w-0 flex-1 p-4 md:p-6">{children}</main>
      </div>
    </NextIntlClientProvider>
  );
}

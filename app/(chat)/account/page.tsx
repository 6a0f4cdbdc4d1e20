import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { hasPassword } from '@/app/_server/account';
import { requirePageUser } from '@/app/_server/page-user';
import { AccountSettings } from './_components/account-settings';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('account');
  return { title: t('title') };
}

/** SPEC §7.4: the user's own account — name, password, sessions, preferences, MCP connections, deletion. */
export default async function AccountPage() {
  const user = await requirePageUser();
  const t = await getTranslations('account');
  return (
    <div className="h-full overflow-y-auto">
      <div className="mx-auto max-w-2xl p-4 pl-12 md:p-6">
        <h1 className="mb-4 text-xl font-semibold">{t('title')}</h1>
        <AccountSettings
          user={{ name: user.name, email: user.email }}
          hasPassword={await hasPassword(user.id)}
        />
      </div>
    </div>
  );
}

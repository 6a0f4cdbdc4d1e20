'use client';

import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { LanguageSelect } from '@/app/_components/language-select';
import { ImportConversationButton } from './import-conversation-button';
import { ThemeSelect } from './theme-select';

type Props = { user: { name: string; email: string; role: string }; onShowShortcuts: () => void };

async function signOut() {
  await fetch('/api/auth/sign-out', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  window.location.assign('/sign-in');
}

/** Import, shortcuts help, the theme, and the account: name, email, Account, Admin (for admins), Sign out. */
export function SidebarFooter({ user, onShowShortcuts }: Props) {
  const t = useTranslations('sidebar');
  return (
    <div className="border-t border-zinc-200 p-3 text-sm dark:border-zinc-800">
      <div className="mb-2 flex flex-wrap gap-x-3 gap-y-1 text-xs">
        <ImportConversationButton />
        <button
          type="button"
          onClick={onShowShortcuts}
          className="text-zinc-600 hover:underline dark:text-zinc-400"
        >
          {t('shortcuts')}
        </button>
        <ThemeSelect />
        <LanguageSelect />
      </div>
      <p className="truncate font-medium" title={user.email}>
        {user.name}
      </p>
      <p className="truncate text-xs text-zinc-500">{user.email}</p>
      <div className="mt-2 flex gap-3 text-xs">
        <Link href="/account" className="text-blue-600 hover:underline">
          {t('account')}
        </Link>
        {user.role === 'admin' && (
          <Link href="/admin/users" className="text-blue-600 hover:underline">
            {t('admin')}
          </Link>
        )}
        <button
          type="button"
          onClick={() => void signOut()}
          className="text-zinc-600 hover:underline dark:text-zinc-400"
        >
          {t('signOut')}
        </button>
      </div>
    </div>
  );
}

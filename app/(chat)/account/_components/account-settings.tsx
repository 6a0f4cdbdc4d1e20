'use client';

import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { LanguageSelect } from '@/app/_components/language-select';
import { ThemeSelect } from '../../_components/theme-select';
import { ConnectionsList } from './connections-list';
import { DeleteAccount } from './delete-account';
import { PasswordForm } from './password-form';
import { ProfileForm } from './profile-form';
import { Section } from './section';
import { SessionsList } from './sessions-list';

/** Every block of the account page; a password change reloads the session list (the others are gone). */
export function AccountSettings({
  user,
  hasPassword,
}: {
  user: { name: string; email: string };
  /** False for an account made through single sign-on: no password to change. */
  hasPassword: boolean;
}) {
  const t = useTranslations('account');
  const id = useId();
  const [version, setVersion] = useState(0);
  return (
    <div className="space-y-4">
      <ProfileForm name={user.name} email={user.email} />
      {hasPassword ? (
        <PasswordForm onChanged={() => setVersion((v) => v + 1)} />
      ) : (
        <Section id={`${id}-pw`} title={t('password')}>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('noPassword')}</p>
        </Section>
      )}
      <SessionsList version={version} />
      <Section id={`${id}-prefs`} title={t('preferences')}>
        <div className="flex flex-wrap gap-4 text-sm">
          <LanguageSelect />
          <ThemeSelect />
        </div>
      </Section>
      <ConnectionsList />
      <DeleteAccount email={user.email} />
    </div>
  );
}

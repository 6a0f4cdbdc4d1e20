'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { useCallback, useEffect, useState } from 'react';
import { adminFetch } from './admin-fetch';
import { CreateUserForm } from './create-user-form';
import { SettingsForm } from './settings-form';
import { UserAccessActions } from './user-access-actions';

type User = {
  id: string;
  name: string;
  email: string;
  role: 'user' | 'admin';
  disabled: boolean;
  createdAt: string;
};

/** Users with role and created date; change role, disable or enable; create accounts; sign-up and limits. */
export function UsersAdmin({ currentUserId }: { currentUserId: string }) {
  const t = useTranslations('admin.users');
  const format = useFormatter();
  const [users, setUsers] = useState<User[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setUsers((await adminFetch<{ items: User[] }>('/api/admin/users')).items);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }, []);
  useEffect(() => void load(), [load]);

  async function patch(id: string, body: Partial<Pick<User, 'role' | 'disabled'>>) {
    setError(null);
    try {
      await adminFetch(`/api/admin/users/${id}`, { method: 'PATCH', json: body });
      await load();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }

  return (
    <div className="max-w-4xl space-y-6">
      <h1 className="text-xl font-semibold">{t('title')}</h1>
      {error && (
        <p
          role="alert"
          className="rounded bg-red-50 p-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
        >
          {error}
        </p>
      )}
      {!users ? (
        <p className="text-sm text-zinc-500">{t('loading')}</p>
      ) : users.length === 0 ? (
        <p className="text-sm text-zinc-500">{t('none')}</p>
      ) : (
        <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {users.map((u) => (
            <li key={u.id} data-user={u.email} className="flex flex-wrap items-center gap-3 p-3 text-sm">
              <div className="min-w-0 flex-1">
                <p className="font-medium">
                  {u.name}{' '}
                  {u.disabled && (
                    <span className="ml-1 rounded bg-zinc-200 px-1 text-xs dark:bg-zinc-700">
                      {t('disabled')}
                    </span>
                  )}
                </p>
                <p className="truncate text-xs text-zinc-500">
                  {u.email} ·{' '}
                  {t('created', { date: format.dateTime(new Date(u.createdAt), { dateStyle: 'medium' }) })}
                </p>
              </div>
              {u.id === currentUserId ? (
                <span className="text-xs text-zinc-500">{t('you', { role: t(`roles.${u.role}`) })}</span>
              ) : (
                <>
                  <select
                    aria-label={t('roleOf', { email: u.email })}
                    value={u.role}
                    onChange={(e) => void patch(u.id, { role: e.target.value as User['role'] })}
                    className="rounded border border-zinc-300 bg-white px-1 py-1 text-xs dark:border-zinc-700 dark:bg-zinc-900"
                  >
                    <option value="user">{t('roles.user')}</option>
                    <option value="admin">{t('roles.admin')}</option>
                  </select>
                  <button
                    type="button"
                    onClick={() => void patch(u.id, { disabled: !u.disabled })}
                    className="rounded border border-zinc-300 px-2 py-1 text-xs dark:border-zinc-700"
                  >
                    {u.disabled ? t('enable') : t('disable')}
                  </button>
                  <UserAccessActions email={u.email} userId={u.id} />
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <CreateUserForm onCreated={() => void load()} />
      <SettingsForm />
    </div>
  );
}

'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { useCallback, useEffect, useState } from 'react';
import { useFailureText } from '@/app/_components/failure-text';
import { adminFetch } from './admin-fetch';
import { CreateUserForm } from './create-user-form';
import { RowActions } from './row-actions';
import { SettingsForm } from './settings-form';
import { Cell, TableHead } from './table-cell';
import { ResetPasswordDialog, signOutUserEverywhere } from './user-access-actions';

type User = {
  id: string;
  name: string;
  email: string;
  role: 'user' | 'admin';
  disabled: boolean;
  createdAt: string;
};

/** The outcome of a row's action, shown in that row. */
type Notice = { userId: string; ok: boolean; text: string };

const COLUMNS = ['user', 'role', 'created', 'actions'] as const;

/** The "Actions for <email>" button of a user's row (where focus goes back after its dialog). */
function actionsButton(email: string): HTMLElement | null {
  for (const row of document.querySelectorAll<HTMLElement>('[data-user]')) {
    if (row.dataset.user === email) return row.querySelector<HTMLElement>('button[aria-haspopup="menu"]');
  }
  return null;
}

/**
 * Users with role and created date: a table on wide screens, cards on a phone. The role is a select in its
 * row; Enable/Disable, Reset password and Sign out everywhere are in the row's actions menu. Also: create
 * accounts; sign-up and limits.
 */
export function UsersAdmin({ currentUserId }: { currentUserId: string }) {
  const t = useTranslations('admin.users');
  const ta = useTranslations('adminUsers');
  const failureText = useFailureText();
  const format = useFormatter();
  const [users, setUsers] = useState<User[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [resetting, setResetting] = useState<User | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);

  const load = useCallback(async () => {
    try {
      setUsers((await adminFetch<{ items: User[] }>('/api/admin/users')).items);
    } catch (e) {
      setError(failureText(e));
    }
  }, [failureText]);
  useEffect(() => void load(), [load]);

  async function patch(id: string, body: Partial<Pick<User, 'role' | 'disabled'>>) {
    setError(null);
    try {
      await adminFetch(`/api/admin/users/${id}`, { method: 'PATCH', json: body });
      await load();
    } catch (e) {
      setError(failureText(e));
    }
  }

  async function signOut(u: User) {
    setNotice(null);
    try {
      await signOutUserEverywhere(u.id);
      setNotice({ userId: u.id, ok: true, text: ta('signedOut', { email: u.email }) });
    } catch (e) {
      setNotice({ userId: u.id, ok: false, text: failureText(e) });
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
        <table className="block w-full text-sm md:table">
          <TableHead columns={COLUMNS} label={(c) => t(`columns.${c as (typeof COLUMNS)[number]}`)} />
          <tbody className="block md:table-row-group">
            {users.map((u) => {
              const shown = notice?.userId === u.id ? notice : null;
              return (
                <tr
                  key={u.id}
                  data-user={u.email}
                  className="relative mb-3 block rounded-lg border border-zinc-200 p-3 pr-12 md:table-row md:rounded-none md:border-0 md:border-b dark:border-zinc-800"
                >
                  {/* The row's header: a screen reader names each row's cells by its user. */}
                  <th
                    scope="row"
                    className="block min-w-0 pb-1 text-left font-normal md:table-cell md:px-2 md:py-2 md:align-top"
                  >
                    <p className="font-medium break-words">
                      {u.name}{' '}
                      {u.disabled && (
                        <span className="ml-1 rounded bg-zinc-200 px-1 text-xs dark:bg-zinc-700">
                          {t('disabled')}
                        </span>
                      )}
                    </p>
                    <p className="text-xs break-all text-zinc-500">{u.email}</p>
                    {shown && (
                      <p
                        role={shown.ok ? 'status' : 'alert'}
                        className={`mt-1 text-xs break-words ${shown.ok ? 'text-green-700 dark:text-green-400' : 'text-red-700 dark:text-red-400'}`}
                      >
                        {shown.text}
                      </p>
                    )}
                  </th>
                  <Cell label={t('columns.role')}>
                    {u.id === currentUserId ? (
                      <span className="text-xs text-zinc-500">
                        {t('you', { role: t(`roles.${u.role}`) })}
                      </span>
                    ) : (
                      <select
                        aria-label={t('roleOf', { email: u.email })}
                        value={u.role}
                        onChange={(e) => void patch(u.id, { role: e.target.value as User['role'] })}
                        className="rounded border border-zinc-300 bg-white px-1 py-1 text-xs dark:border-zinc-700 dark:bg-zinc-900"
                      >
                        <option value="user">{t('roles.user')}</option>
                        <option value="admin">{t('roles.admin')}</option>
                      </select>
                    )}
                  </Cell>
                  <Cell label={t('columns.created')}>
                    <time dateTime={u.createdAt} className="whitespace-nowrap">
                      {format.dateTime(new Date(u.createdAt), { dateStyle: 'medium' })}
                    </time>
                  </Cell>
                  <td className="absolute top-2 right-2 md:static md:table-cell md:px-2 md:py-2 md:text-right md:align-top">
                    {u.id !== currentUserId && (
                      <RowActions
                        name={u.email}
                        actions={[
                          {
                            label: u.disabled ? t('enable') : t('disable'),
                            onSelect: () => void patch(u.id, { disabled: !u.disabled }),
                          },
                          {
                            label: ta('resetPassword'),
                            onSelect: () => setResetting(u),
                            opensDialog: true,
                          },
                          { label: ta('signOutEverywhere'), onSelect: () => void signOut(u) },
                        ]}
                      />
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {resetting && (
        <ResetPasswordDialog
          email={resetting.email}
          userId={resetting.id}
          onDone={(text) => setNotice({ userId: resetting.id, ok: true, text })}
          onClose={() => setResetting(null)}
          returnFocus={() => actionsButton(resetting.email)}
        />
      )}
      <CreateUserForm onCreated={() => void load()} />
      <SettingsForm />
    </div>
  );
}

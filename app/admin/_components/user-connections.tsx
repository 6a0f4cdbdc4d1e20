import { useFormatter, useTranslations } from 'next-intl';
import { ScrollRegion } from '@/app/_components/scroll-region';
import type { ServerStatusInfo } from '@/lib/schemas/mcp';

export type UserConnection = { user: { id: string; email: string } } & ServerStatusInfo;

/** A per-user server's live connections: whose, their status and last error (never their credentials). */
export function UserConnections({ items }: { items: UserConnection[] }) {
  const t = useTranslations('admin.connections');
  const format = useFormatter();
  return (
    <section aria-labelledby="server-connections" className="space-y-2">
      <h2 id="server-connections" className="text-base font-semibold">
        {t('title', { count: items.length })}
      </h2>
      {items.length === 0 ? (
        <p className="text-sm text-zinc-500">{t('none')}</p>
      ) : (
        <ScrollRegion label={t('title', { count: items.length })}>
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-zinc-500">
              <tr>
                <th className="py-1 pr-3 font-medium">{t('user')}</th>
                <th className="py-1 pr-3 font-medium">{t('status')}</th>
                <th className="py-1 pr-3 font-medium">{t('since')}</th>
                <th className="py-1 font-medium">{t('lastError')}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((c) => (
                <tr
                  key={c.user.id}
                  data-user-connection={c.user.email}
                  className="border-t border-zinc-100 align-top dark:border-zinc-800"
                >
                  <td className="py-1 pr-3 break-all">{c.user.email}</td>
                  <td className="py-1 pr-3">{c.status}</td>
                  <td className="py-1 pr-3 whitespace-nowrap">
                    {c.connectedSince
                      ? format.dateTime(new Date(c.connectedSince), {
                          dateStyle: 'medium',
                          timeStyle: 'short',
                        })
                      : '—'}
                  </td>
                  <td className="py-1 break-words text-zinc-600 dark:text-zinc-400">
                    {c.lastError ? `${c.lastError.kind}: ${c.lastError.message}` : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </section>
  );
}

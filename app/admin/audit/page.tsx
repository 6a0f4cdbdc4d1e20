import Link from 'next/link';
import { ScrollRegion } from '@/app/_components/scroll-region';
import { getFormatter, getTranslations } from 'next-intl/server';
import { getDb } from '@/db/client';
import { type AuditItem, listAudit } from '@/db/queries/audit';
import { AuditQuerySchema } from '@/lib/schemas/audit';
import { requireAdminPage } from '@/app/_server/page-user';

export const dynamic = 'force-dynamic';

const FILTERS = [
  { kind: undefined, label: 'all' },
  { kind: 'admin', label: 'admin' },
  { kind: 'refused', label: 'refused' },
  { kind: 'anonymous', label: 'anonymous' },
] as const;

/** UTC, to the second: one clock for every admin reading the log. */
const time = (iso: string) => `${iso.replace('T', ' ').slice(0, 19)} UTC`;

/** "×37 · last 12:03:04" for a repeated failure kept as one row. */
async function Repeats({ entry }: { entry: AuditItem }) {
  if (entry.count <= 1) return null;
  const [t, format] = [await getTranslations('admin.audit'), await getFormatter()];
  return (
    <span data-audit-count={entry.count} className="ml-2 whitespace-nowrap text-xs text-zinc-500">
      ×{format.number(entry.count)} · {t('last')} <time dateTime={entry.lastAt}>{time(entry.lastAt)}</time>
    </span>
  );
}

/**
 * Admin actions and refused attempts, most recently active first (server-rendered, after the role check). Each kind lists its own newest 200, so a flood of anonymous requests cannot hide admin actions.
 */
export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireAdminPage();
  const t = await getTranslations('admin.audit');
  const parsed = AuditQuerySchema.safeParse(await searchParams);
  const kind = parsed.success ? parsed.data.kind : undefined;
  const entries = await listAudit(getDb(), { kind });
  return (
    <section className="space-y-4">
      <h1 className="text-xl font-semibold">{t('title')}</h1>
      <nav aria-label={t('filter')} className="flex flex-wrap gap-3 text-sm">
        {FILTERS.map((f) => (
          <Link
            key={f.label}
            href={f.kind ? `/admin/audit?kind=${f.kind}` : '/admin/audit'}
            aria-current={f.kind === kind ? 'page' : undefined}
            className={f.kind === kind ? 'font-semibold' : 'text-blue-700 hover:underline dark:text-blue-400'}
          >
            {t(`filters.${f.label}`)}
          </Link>
        ))}
      </nav>
      {entries.length === 0 ? (
        <p className="text-sm text-zinc-500">{t('none')}</p>
      ) : (
        <ScrollRegion label={t('title')}>
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-zinc-500">
              <tr>
                <th className="py-1 pr-3">{t('when')}</th>
                <th className="py-1 pr-3">{t('who')}</th>
                <th className="py-1 pr-3">{t('action')}</th>
                <th className="py-1 pr-3">{t('target')}</th>
                <th className="py-1 pr-3">{t('outcome')}</th>
                <th className="py-1">{t('detail')}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr
                  key={e.id}
                  data-audit-outcome={e.outcome}
                  data-audit-kind={e.kind}
                  className="border-t border-zinc-200 align-top dark:border-zinc-800"
                >
                  <td className="py-1 pr-3 whitespace-nowrap">{time(e.at)}</td>
                  <td className="py-1 pr-3">{e.email ?? t('anonymous')}</td>
                  <td className="py-1 pr-3 font-mono text-xs">{e.action}</td>
                  <td className="py-1 pr-3 break-all">{e.target}</td>
                  <td
                    className={`py-1 pr-3 ${e.outcome === 'ok' ? 'text-green-700 dark:text-green-400' : 'text-red-700 dark:text-red-400'}`}
                  >
                    {e.outcome}
                    <Repeats entry={e} />
                  </td>
                  <td className="py-1 font-mono text-xs break-all">{e.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </section>
  );
}

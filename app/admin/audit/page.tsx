import Link from 'next/link';
import { getDb } from '@/db/client';
import { type AuditItem, listAudit } from '@/db/queries/audit';
import { AuditQuerySchema } from '@/lib/schemas/audit';
import { requireAdminPage } from '@/app/_server/page-user';

export const dynamic = 'force-dynamic';

const FILTERS = [
  { kind: undefined, label: 'All' },
  { kind: 'admin', label: 'Admin actions' },
  { kind: 'refused', label: 'Refused (signed in)' },
  { kind: 'anonymous', label: 'Anonymous' },
] as const;

const time = (iso: string) => iso.replace('T', ' ').slice(0, 19);

/** "×37 · last 12:03:04" for a repeated failure kept as one row. */
function Repeats({ entry }: { entry: AuditItem }) {
  if (entry.count <= 1) return null;
  return (
    <span data-audit-count={entry.count} className="ml-2 whitespace-nowrap text-xs text-zinc-500">
      ×{entry.count.toLocaleString('en')} · last <time dateTime={entry.lastAt}>{time(entry.lastAt)}</time>
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
  const parsed = AuditQuerySchema.safeParse(await searchParams);
  const kind = parsed.success ? parsed.data.kind : undefined;
  const entries = listAudit(getDb(), { kind });
  return (
    <section className="space-y-4">
      <h1 className="text-xl font-semibold">Audit log</h1>
      <nav aria-label="Audit filter" className="flex flex-wrap gap-3 text-sm">
        {FILTERS.map((f) => (
          <Link
            key={f.label}
            href={f.kind ? `/admin/audit?kind=${f.kind}` : '/admin/audit'}
            aria-current={f.kind === kind ? 'page' : undefined}
            className={f.kind === kind ? 'font-semibold' : 'text-blue-700 hover:underline dark:text-blue-400'}
          >
            {f.label}
          </Link>
        ))}
      </nav>
      {entries.length === 0 ? (
        <p className="text-sm text-zinc-500">Nothing recorded yet.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-zinc-500">
              <tr>
                <th className="py-1 pr-3">When</th>
                <th className="py-1 pr-3">Who</th>
                <th className="py-1 pr-3">Action</th>
                <th className="py-1 pr-3">Target</th>
                <th className="py-1 pr-3">Outcome</th>
                <th className="py-1">Detail</th>
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
                  <td className="py-1 pr-3">{e.email ?? 'anonymous'}</td>
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
        </div>
      )}
    </section>
  );
}

import { getDb } from '@/db/client';
import { listAudit } from '@/db/queries/audit';
import { requireAdminPage } from '@/app/_server/page-user';

export const dynamic = 'force-dynamic';

/** Admin actions and refused attempts, newest first (server-rendered, after the role check). */
export default async function AuditPage() {
  await requireAdminPage();
  const entries = listAudit(getDb());
  return (
    <section className="space-y-4">
      <h1 className="text-xl font-semibold">Audit log</h1>
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
                <tr key={e.id} data-audit-outcome={e.outcome} className="border-t border-zinc-200 align-top dark:border-zinc-800">
                  <td className="py-1 pr-3 whitespace-nowrap">{e.at.replace('T', ' ').slice(0, 19)}</td>
                  <td className="py-1 pr-3">{e.email ?? 'anonymous'}</td>
                  <td className="py-1 pr-3 font-mono text-xs">{e.action}</td>
                  <td className="py-1 pr-3 break-all">{e.target}</td>
                  <td className={`py-1 pr-3 ${e.outcome === 'ok' ? 'text-green-700 dark:text-green-400' : 'text-red-700 dark:text-red-400'}`}>{e.outcome}</td>
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

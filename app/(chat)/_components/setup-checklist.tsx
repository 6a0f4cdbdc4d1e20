import { Check } from 'lucide-react';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import type { SetupStatus } from '@/app/_server/setup-status';

const STEPS = [
  { key: 'provider', href: '/admin/providers' },
  { key: 'mcp', href: '/admin/mcp' },
  { key: 'users', href: '/admin/users' },
] as const;

/** The admin's first-run checklist: each step links to its admin page and shows when it is done. */
export function SetupChecklist({ status }: { status: SetupStatus }) {
  const t = useTranslations('setup');
  return (
    <section
      aria-labelledby="setup-checklist-title"
      data-setup-checklist
      className="mx-auto mt-6 max-w-lg rounded-lg border border-zinc-200 p-4 text-sm dark:border-zinc-800"
    >
      <h2 id="setup-checklist-title" className="text-base font-semibold">
        {t('title')}
      </h2>
      <p className="mt-1 text-zinc-600 dark:text-zinc-400">{t('intro')}</p>
      <ol className="mt-3 space-y-2">
        {STEPS.map(({ key, href }) => {
          const done = status[key];
          return (
            <li key={key} data-setup-step={key} data-done={done} className="flex items-start gap-2">
              <span
                aria-hidden="true"
                className={
                  done
                    ? 'mt-0.5 inline-flex size-4 shrink-0 items-center justify-center rounded-full bg-green-600 text-[10px] text-white'
                    : 'mt-0.5 inline-block size-4 shrink-0 rounded-full border border-zinc-400'
                }
              >
                {done ? <Check className="size-3" /> : null}
              </span>
              <span className="min-w-0 flex-1">
                <Link
                  href={href}
                  className={done ? 'text-zinc-500 line-through' : 'text-blue-600 hover:underline'}
                >
                  {t(key)}
                </Link>{' '}
                <span className="text-xs text-zinc-500">({done ? t('done') : t('todo')})</span>
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

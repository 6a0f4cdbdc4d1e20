'use client';

import { useTranslations } from 'next-intl';
import { ArrowLeft } from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';

const LINKS = [
  { href: '/admin/mcp', label: 'mcp' },
  { href: '/admin/providers', label: 'providers' },
  { href: '/admin/users', label: 'users' },
  { href: '/admin/sso', label: null },
  { href: '/admin/audit', label: 'audit' },
] as const;

/** The admin sections; a row of links on phones, a column on wider screens. */
export function AdminNav() {
  const pathname = usePathname();
  const t = useTranslations('sso.admin');
  const tn = useTranslations('admin.nav');
  return (
    <nav
      aria-label={tn('label')}
      className="flex shrink-0 flex-wrap gap-1 border-b border-zinc-200 bg-zinc-50 p-2 md:w-56 md:flex-col md:border-r md:border-b-0 md:p-3 dark:border-zinc-800 dark:bg-zinc-950"
    >
      <p className="hidden px-3 py-2 text-xs font-semibold uppercase tracking-wide text-zinc-500 md:block">
        {tn('label')}
      </p>
      {LINKS.map((l) => {
        const active = pathname === l.href || pathname.startsWith(`${l.href}/`);
        return (
          <Link
            key={l.href}
            href={l.href}
            aria-current={active ? 'page' : undefined}
            className={`rounded-md px-3 py-2 text-sm ${active ? 'bg-zinc-200 font-medium dark:bg-zinc-800' : 'hover:bg-zinc-100 dark:hover:bg-zinc-900'}`}
          >
            {l.label ? tn(l.label) : t('nav')}
          </Link>
        );
      })}
      <Link
        href="/"
        className="rounded-md px-3 py-2 text-sm text-blue-600 hover:bg-zinc-100 md:mt-auto dark:hover:bg-zinc-900"
      >
        <ArrowLeft aria-hidden className="mr-1 inline size-4 align-[-0.125em]" />
        {tn('back')}
      </Link>
    </nav>
  );
}

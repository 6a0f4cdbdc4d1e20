import type { ReactNode } from 'react';

/** A table cell on wide screens; a labelled line of a card on a phone (the admin tables' layout). */
export function Cell({
  label,
  children,
  className = '',
}: {
  label: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <td className={`flex gap-2 py-0.5 md:table-cell md:px-2 md:py-2 md:align-top ${className}`}>
      <span className="w-28 shrink-0 text-zinc-500 md:hidden">{label}</span>
      <span className="min-w-0">{children}</span>
    </td>
  );
}

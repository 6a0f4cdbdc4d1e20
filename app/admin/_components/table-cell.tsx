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

/**
 * The header row of an admin table: column names on wide screens (the actions column named for screen
 * readers only), hidden on a phone, where each cell carries its own label (Cell).
 */
export function TableHead({
  columns,
  label,
}: {
  columns: readonly string[];
  label: (column: string) => string;
}) {
  return (
    <thead className="hidden border-b border-zinc-200 text-left text-xs text-zinc-500 md:table-header-group dark:border-zinc-800">
      <tr>
        {columns.map((column) => (
          <th key={column} scope="col" className="px-2 py-2 font-medium">
            {column === 'actions' ? <span className="sr-only">{label(column)}</span> : label(column)}
          </th>
        ))}
      </tr>
    </thead>
  );
}

'use client';

import type { ReactNode } from 'react';

/** A labelled field of the MCP server form, with its error (announced) under it. */
export function FieldBox({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children}
      {error && (
        <p
          id={`${id}-error`}
          role="alert"
          className="mt-1 break-words text-xs text-red-700 dark:text-red-400"
        >
          {error}
        </p>
      )}
    </div>
  );
}

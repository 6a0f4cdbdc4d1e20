'use client';

import { useTranslations } from 'next-intl';
import type { ProcessCount } from '@/lib/mcp/merge-status';

/**
 * "Connected in 1 of 3 server processes, failing in 2": only when more than one process (workers,
 * instances) holds the server's connection, each its own.
 */
export function ProcessCountNote({ processes, className }: { processes?: ProcessCount; className?: string }) {
  const t = useTranslations('admin.status');
  if (!processes || processes.total < 2) return null;
  return (
    <span data-processes className={className}>
      {t('processes', processes)}
    </span>
  );
}

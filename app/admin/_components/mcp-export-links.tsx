'use client';

import { useTranslations } from 'next-intl';
import { BUTTON } from './status-style';

/** Admin ▸ MCP servers' two downloads: the servers' config, and the same with its secrets in clear text. */
export function McpExportLinks() {
  const t = useTranslations('admin.mcpServers');
  return (
    <>
      <a href="/api/mcp/servers/export" download className={BUTTON}>
        {t('export')}
      </a>
      {/* Its warning is read with it (aria-describedby) and shown while it is focused or hovered: a title
          alone reaches neither the keyboard nor every screen reader. */}
      <span className="relative">
        <a
          href="/api/mcp/servers/export?secrets=1"
          download
          aria-describedby="export-secrets-note"
          className={`${BUTTON} peer inline-block`}
        >
          {t('exportSecrets')}
        </a>
        <span
          id="export-secrets-note"
          className="absolute right-0 top-full z-10 mt-1 hidden w-64 rounded-md border border-amber-300 bg-amber-50 p-2 text-xs text-amber-900 shadow peer-hover:block peer-focus:block dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
        >
          {t('exportSecretsTitle')}
        </span>
      </span>
    </>
  );
}

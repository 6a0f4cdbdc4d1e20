'use client';

import { useTranslations } from 'next-intl';
import { APP_PERMISSIONS, type AppPermission } from '@/lib/mcp-apps/sandbox-policy';
import type { FieldGroupProps } from './mcp-server-draft';

/** MCP Apps of a server: whether its tool UIs render, and which permissions they may be granted. */
export function McpAppsFields({ base, draft, update }: Pick<FieldGroupProps, 'base' | 'draft' | 'update'>) {
  const t = useTranslations('adminApps');
  const toggle = (p: AppPermission, on: boolean) =>
    update({
      appPermissions: on
        ? APP_PERMISSIONS.filter((x) => x === p || draft.appPermissions.includes(x))
        : draft.appPermissions.filter((x) => x !== p),
    });
  return (
    <fieldset className="space-y-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-700">
      <legend className="px-1 text-sm font-medium">{t('legend')}</legend>
      <label className="flex items-center gap-2 text-sm">
        <input
          id={`${base}-apps`}
          type="checkbox"
          checked={draft.appsEnabled}
          onChange={(e) => update({ appsEnabled: e.target.checked })}
        />
        {t('enabled')}
      </label>
      <p className="text-xs text-zinc-500">{t('hint')}</p>
      <fieldset disabled={!draft.appsEnabled} className="space-y-1 disabled:opacity-50">
        <legend className="text-sm">{t('permissions')}</legend>
        {APP_PERMISSIONS.map((p) => (
          <label key={p} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={draft.appPermissions.includes(p)}
              onChange={(e) => toggle(p, e.target.checked)}
            />
            {t(`permission.${p}`)}
          </label>
        ))}
        <p className="text-xs text-zinc-500">{t('permissionsHint')}</p>
      </fieldset>
    </fieldset>
  );
}

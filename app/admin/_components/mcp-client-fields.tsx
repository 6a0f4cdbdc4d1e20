'use client';

import { useTranslations } from 'next-intl';
import type { SamplingPolicy } from '@/lib/schemas/mcp';
import { type FieldGroupProps, INPUT } from './mcp-server-draft';

/** What the server may ask of the host while it works: the model (sampling) and which folders it may use (roots). */
export function McpClientFields({ base, draft, update, bind, box }: FieldGroupProps) {
  const t = useTranslations('admin.clientFields');
  if (draft.transport === 'builtin') return null;
  return (
    <fieldset className="space-y-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-700">
      <legend className="px-1 text-sm font-medium">{t('legend')}</legend>
      <div>
        <label htmlFor={`${base}-sampling`} className="block text-sm font-medium">
          {t('sampling')}
        </label>
        <select
          id={`${base}-sampling`}
          value={draft.sampling}
          onChange={(e) => update({ sampling: e.target.value as SamplingPolicy })}
          aria-describedby={`${base}-sampling-hint`}
          className={INPUT}
        >
          <option value="ask">{t('ask')}</option>
          <option value="auto">{t('auto')}</option>
          <option value="never">{t('never')}</option>
        </select>
        <p id={`${base}-sampling-hint`} className="mt-1 text-xs text-zinc-500">
          {t(`hint.${draft.sampling}`)}
        </p>
      </div>
      {box(
        'roots',
        t('roots'),
        <textarea
          {...bind('roots')}
          rows={2}
          placeholder="file:///srv/shared-docs"
          spellCheck={false}
          className={`${INPUT} font-mono`}
        />,
      )}
      <p className="-mt-2 text-xs text-zinc-500">{t('rootsHint')}</p>
    </fieldset>
  );
}

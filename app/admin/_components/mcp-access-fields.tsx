'use client';

import { useTranslations } from 'next-intl';
import type { Scope } from '@/lib/schemas/mcp';
import { type FieldGroupProps, INPUT } from './mcp-server-draft';

/** Whose connection a server is, who may use it, what each user supplies, and its OAuth client. */
export function McpAccessFields({ base, draft, update, bind, box }: FieldGroupProps) {
  const t = useTranslations('admin.access');
  const remote = draft.transport === 'http' || draft.transport === 'sse';
  const text = (key: 'oauthClientId' | 'oauthClientSecret' | 'oauthScopes', label: string) => (
    <label htmlFor={`${base}-${key}`} className="block text-xs text-zinc-600 dark:text-zinc-400">
      {label}
      <input
        id={`${base}-${key}`}
        value={draft[key]}
        onChange={(e) => update({ [key]: e.target.value })}
        type={key === 'oauthClientSecret' ? 'password' : 'text'}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        className={`${INPUT} font-mono`}
      />
    </label>
  );
  return (
    <fieldset className="space-y-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-700">
      <legend className="px-1 text-sm font-medium">{t('legend')}</legend>
      <div>
        <label htmlFor={`${base}-scope`} className="block text-sm font-medium">
          {t('connection')}
        </label>
        <select
          id={`${base}-scope`}
          value={draft.scope}
          onChange={(e) => update({ scope: e.target.value as Scope })}
          aria-describedby={`${base}-scope-hint`}
          className={INPUT}
        >
          <option value="user">{t('perUser')}</option>
          <option value="shared">{t('shared')}</option>
        </select>
        <p id={`${base}-scope-hint`} className="mt-1 text-xs text-zinc-500">
          {t(`hint.${draft.scope}`)}
        </p>
      </div>
      {box(
        'allow',
        t('allow'),
        <input {...bind('allow')} autoComplete="off" autoCapitalize="off" className={INPUT} />,
      )}
      <p className="-mt-2 text-xs text-zinc-500">
        {t.rich('allowHelp', { code: (chunks) => <code>{chunks}</code> })}
      </p>
      {draft.transport !== 'builtin' && draft.scope === 'user' && (
        <>
          {box(
            'userValues',
            draft.transport === 'stdio' ? t('userValuesEnv') : t('userValuesHeader'),
            <input
              {...bind('userValues')}
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              className={`${INPUT} font-mono`}
            />,
          )}
          <p className="-mt-2 text-xs text-zinc-500">{t('userValuesHelp')}</p>
        </>
      )}
      {remote &&
        box(
          'oauth',
          t('oauth'),
          <div className="space-y-1">
            <p className="text-xs text-zinc-500">{t('oauthHelp')}</p>
            {text('oauthClientId', t('clientId'))}
            {text('oauthClientSecret', t('clientSecret'))}
            {text('oauthScopes', t('scopes'))}
          </div>,
        )}
    </fieldset>
  );
}

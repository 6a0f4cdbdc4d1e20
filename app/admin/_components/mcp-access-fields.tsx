'use client';

import type { Scope } from '@/lib/schemas/mcp';
import { type FieldGroupProps, INPUT } from './mcp-server-draft';

const SCOPE_HINT: Record<Scope, string> = {
  user: 'Each person gets their own process or session, sign-in and state; nobody sees what another stored.',
  shared: 'One connection serves everyone: what one person stores or opens, the others can see.',
};

/** Whose connection a server is, who may use it, what each user supplies, and its OAuth client. */
export function McpAccessFields({ base, draft, update, bind, box }: FieldGroupProps) {
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
      <legend className="px-1 text-sm font-medium">Access</legend>
      <div>
        <label htmlFor={`${base}-scope`} className="block text-sm font-medium">
          Connection
        </label>
        <select
          id={`${base}-scope`}
          value={draft.scope}
          onChange={(e) => update({ scope: e.target.value as Scope })}
          aria-describedby={`${base}-scope-hint`}
          className={INPUT}
        >
          <option value="user">One per user</option>
          <option value="shared">Shared by everyone</option>
        </select>
        <p id={`${base}-scope-hint`} className="mt-1 text-xs text-zinc-500">
          {SCOPE_HINT[draft.scope]}
        </p>
      </div>
      {box(
        'allow',
        'Who may use it',
        <input {...bind('allow')} autoComplete="off" autoCapitalize="off" className={INPUT} />,
      )}
      <p className="-mt-2 text-xs text-zinc-500">
        <code>*</code> for everyone, a role (<code>admin</code>, <code>user</code>) or emails, separated by
        commas. To anyone else the server does not exist.
      </p>
      {draft.transport !== 'builtin' && draft.scope === 'user' && (
        <>
          {box(
            'userValues',
            `Values each user supplies (${draft.transport === 'stdio' ? 'environment variable' : 'header'} names)`,
            <input
              {...bind('userValues')}
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              className={`${INPUT} font-mono`}
            />,
          )}
          <p className="-mt-2 text-xs text-zinc-500">
            e.g. a personal API token: each user enters theirs once in the Tools menu (stored encrypted); the
            server does not start for a user who has not.
          </p>
        </>
      )}
      {remote &&
        box(
          'oauth',
          'OAuth client (optional)',
          <div className="space-y-1">
            <p className="text-xs text-zinc-500">
              Leave empty and each user's sign-in discovers the provider and registers this app by itself.
            </p>
            {text('oauthClientId', 'Client ID')}
            {text('oauthClientSecret', 'Client secret')}
            {text('oauthScopes', 'Scopes (space-separated)')}
          </div>,
        )}
    </fieldset>
  );
}

'use client';

import { useTranslations } from 'next-intl';

export type Resource = { uri: string; name: string; description?: string; mimeType?: string };
export type Prompt = {
  name: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
};

/** A server's resources and prompts; descriptions are untrusted and shown as plain text, in full. */
export function ServerCatalog({ resources, prompts }: { resources: Resource[]; prompts: Prompt[] }) {
  const t = useTranslations('admin.catalog');
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <section aria-labelledby="server-resources" className="min-w-0">
        <h2 id="server-resources" className="text-base font-semibold">
          {t('resources', { count: resources.length })}
        </h2>
        {resources.length === 0 && <p className="mt-1 text-sm text-zinc-500">{t('noResources')}</p>}
        <ul className="mt-2 space-y-2">
          {resources.map((r) => (
            <li
              key={r.uri}
              data-resource={r.uri}
              className="rounded-md border border-zinc-200 p-2 text-sm dark:border-zinc-800"
            >
              <p className="break-all font-mono text-xs">{r.uri}</p>
              <p className="break-words font-medium">
                {r.name}{' '}
                {r.mimeType && <span className="font-normal text-xs text-zinc-500">{r.mimeType}</span>}
              </p>
              {r.description && (
                <p className="whitespace-pre-wrap break-words text-zinc-600 dark:text-zinc-400">
                  {r.description}
                </p>
              )}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="server-prompts" className="min-w-0">
        <h2 id="server-prompts" className="text-base font-semibold">
          {t('prompts', { count: prompts.length })}
        </h2>
        {prompts.length === 0 && <p className="mt-1 text-sm text-zinc-500">{t('noPrompts')}</p>}
        <ul className="mt-2 space-y-2">
          {prompts.map((p) => (
            <li
              key={p.name}
              data-prompt={p.name}
              className="rounded-md border border-zinc-200 p-2 text-sm dark:border-zinc-800"
            >
              <p className="break-all font-mono font-medium">{p.name}</p>
              {p.description && (
                <p className="whitespace-pre-wrap break-words text-zinc-600 dark:text-zinc-400">
                  {p.description}
                </p>
              )}
              {(p.arguments ?? []).length > 0 && (
                <ul className="mt-1 space-y-0.5 text-xs">
                  {(p.arguments ?? []).map((a) => (
                    <li key={a.name} className="break-words">
                      <code className="font-semibold">{a.name}</code>
                      {a.required && (
                        <span className="ml-1 text-red-700 dark:text-red-400" title={t('required')}>
                          * {t('required')}
                        </span>
                      )}
                      {a.description && (
                        <span className="whitespace-pre-wrap text-zinc-500"> — {a.description}</span>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

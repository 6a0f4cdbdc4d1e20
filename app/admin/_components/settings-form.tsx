'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { adminFetch } from './admin-fetch';
import { Field, inputClass } from './field';
import { ToolSearchFields } from './tool-search-fields';

type Settings = {
  signupOpen: boolean;
  maxSteps: number;
  maxParallelTools: number;
  maxToolCalls: number;
  chatRequestsPerMinute: number;
  maxConcurrentTurns: number;
  toolSearchMaxTools: number;
  toolSearchMaxTokens: number;
};

const LIMITS = [
  'maxSteps',
  'maxToolCalls',
  'maxParallelTools',
  'chatRequestsPerMinute',
  'maxConcurrentTurns',
] as const satisfies ReadonlyArray<keyof Settings>;

/** Sign-up and the limits of the tool loop and of chat use. */
export function SettingsForm() {
  const t = useTranslations('admin.settings');
  const [settings, setSettings] = useState<Settings | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  useEffect(() => {
    adminFetch<Settings>('/api/admin/settings').then(setSettings, (e: Error) => setStatus(e.message));
  }, []);

  async function save(patch: Partial<Settings>) {
    setSettings((s) => (s ? { ...s, ...patch } : s)); // show the change at once; the answer confirms it
    try {
      setSettings(await adminFetch<Settings>('/api/admin/settings', { method: 'PATCH', json: patch }));
      setStatus(t('saved'));
    } catch (e) {
      setStatus(e instanceof Error ? e.message : String(e));
    }
  }

  if (!settings) return <p className="text-sm text-zinc-500">{status ?? t('loading')}</p>;
  return (
    <section className="space-y-3 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
      <h2 className="font-semibold">{t('title')}</h2>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={settings.signupOpen}
          onChange={(e) => void save({ signupOpen: e.target.checked })}
        />
        {t('signupOpen')}
      </label>
      <form
        className="grid gap-3 sm:grid-cols-3"
        onSubmit={(e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget);
          void save(Object.fromEntries(LIMITS.map((key) => [key, Number(data.get(key))])));
        }}
      >
        {LIMITS.map((key) => (
          <Field key={key} label={t(`limits.${key}`)}>
            <input
              name={key}
              type="number"
              min={1}
              defaultValue={settings[key] as number}
              className={inputClass}
            />
          </Field>
        ))}
        <div className="sm:col-span-3">
          <button
            type="submit"
            className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm dark:border-zinc-700"
          >
            {t('saveLimits')}
          </button>
        </div>
      </form>
      <ToolSearchFields
        maxTools={settings.toolSearchMaxTools}
        maxTokens={settings.toolSearchMaxTokens}
        onSave={(patch) => void save(patch)}
      />
      {status && (
        <p role="status" className="text-xs text-zinc-500">
          {status}
        </p>
      )}
    </section>
  );
}

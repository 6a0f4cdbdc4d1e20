'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';
import { useFailureText } from '@/app/_components/failure-text';
import { AdminApiError, adminFetch } from './admin-fetch';
import { Field, inputClass, useFocusFirstInvalid } from './field';
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
  /** The version: a save sends it back as If-Match (a 409 when another admin or tab saved since). */
  updatedAt: string;
};

type Patch = Partial<Omit<Settings, 'updatedAt'>>;
type NumberKey = Exclude<keyof Settings, 'signupOpen' | 'updatedAt'>;

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
  const failureText = useFailureText();
  const [settings, setSettings] = useState<Settings | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  const [error, setError] = useState<string | null>(null);
  // A limit the server refused (by field name): the field is marked, described by its error and focused.
  const [fields, setFields] = useState<Record<string, string>>({});
  const limitsForm = useRef<HTMLFormElement>(null);
  // After a refused save, the first field in error.
  useFocusFirstInvalid(limitsForm, fields);
  // Saves run one after another, each with the version the one before it left (a second click while the
  // first save is under way is not a conflict with this tab's own save).
  const queue = useRef<Promise<void>>(Promise.resolve());
  /**
   * The stored settings the form last showed: their version, and what each field was given (a field
   * that still shows its value was not edited).
   */
  const shown = useRef<Settings | null>(null);
  const section = useRef<HTMLElement>(null);
  const show = (next: Settings) => {
    // A number field the admin has not edited takes the stored value (another admin's, after theirs);
    // one they edited keeps what they typed, saved or not.
    const before = shown.current;
    for (const input of section.current?.querySelectorAll<HTMLInputElement>('input[type="number"]') ?? []) {
      const key = input.name as NumberKey;
      if (before && key in before && input.value === String(before[key])) input.value = String(next[key]);
    }
    shown.current = next;
    setSettings(next);
  };

  useEffect(() => {
    adminFetch<Settings>('/api/admin/settings').then(
      (loaded) => {
        shown.current = loaded;
        setSettings(loaded);
      },
      (e) => setStatus(failureText(e)),
    );
  }, [failureText]);

  /**
   * The sign-up box sends just its new state, which is what the admin chose whatever else changed
   * meanwhile: no version. The limits are sent with the version they were shown at (If-Match): a save
   * after another admin's is refused (409) rather than putting back values the admin did not edit.
   */
  async function write(patch: Patch) {
    const ifMatch = 'signupOpen' in patch ? null : shown.current?.updatedAt;
    try {
      show(
        await adminFetch<Settings>('/api/admin/settings', {
          method: 'PATCH',
          ...(ifMatch && { headers: { 'If-Match': ifMatch } }),
          json: patch,
        }),
      );
      setStatus(t('saved'));
    } catch (e) {
      if (e instanceof AdminApiError && e.status === 409 && ifMatch) {
        // Another admin or tab saved since this form was opened: nothing was written. The fields this
        // admin edited keep their values; the others show the current ones, so a second save stores the
        // edits over the other admin's values, not the old ones.
        const current = await adminFetch<Settings>('/api/admin/settings').catch(() => null);
        if (current && current.updatedAt !== ifMatch) {
          show(current);
          setError(t('changedMeanwhile'));
          return;
        }
      }
      // Nothing was saved: the box shows the stored state again (the fields keep what was typed).
      const stored = shown.current;
      if ('signupOpen' in patch && stored) setSettings((s) => s && { ...s, signupOpen: stored.signupOpen });
      const refused = e instanceof AdminApiError ? (e.fields ?? {}) : {};
      // Refused limits are told at their fields; anything else (or a reason without a field) down here.
      if (LIMITS.some((key) => refused[key])) setFields(refused);
      else setError(failureText(e));
    }
  }

  function save(patch: Patch) {
    setSettings((s) => (s ? { ...s, ...patch } : s)); // show the change at once; the answer confirms it
    setStatus(null);
    setError(null);
    setFields({});
    queue.current = queue.current.then(() => write(patch));
  }

  if (!settings) return <p className="text-sm text-zinc-500">{status ?? t('loading')}</p>;
  return (
    <section ref={section} className="space-y-3 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
      <h2 className="font-semibold">{t('title')}</h2>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={settings.signupOpen}
          onChange={(e) => save({ signupOpen: e.target.checked })}
        />
        {t('signupOpen')}
      </label>
      <form
        ref={limitsForm}
        className="grid gap-3 sm:grid-cols-3"
        onSubmit={(e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget);
          save(Object.fromEntries(LIMITS.map((key) => [key, Number(data.get(key))])));
        }}
      >
        {LIMITS.map((key) => (
          <Field key={key} label={t(`limits.${key}`)} error={fields[key]}>
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
        onSave={save}
      />
      {status && (
        <p role="status" className="text-xs text-zinc-500">
          {status}
        </p>
      )}
      {error && (
        <p role="alert" className="text-xs text-red-600">
          {error}
        </p>
      )}
    </section>
  );
}

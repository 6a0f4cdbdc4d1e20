'use client';

import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '@/app/(chat)/_components/confirm-dialog';
import { BusyButton } from '@/app/_components/busy-button';
import { useFailureText } from '@/app/_components/failure-text';
import { neighbourControl } from '@/app/_components/neighbour-focus';
import { adminFetch } from './admin-fetch';
import { ProviderForm, type ProviderView } from './provider-form';

type Overview = {
  items: ProviderView[];
  env: { baseURL: string; model: string; configured: boolean; hasApiKey: boolean };
  ollama: { baseURL: string; reachable: boolean; models: string[] };
};
type TestResult = { ok: boolean; latencyMs: number; model: string | null; reply?: string; error?: string };

/** Once a provider's delete is confirmed (its card is about to go): the next card's Delete, or the one above. */
function nextDeleteButton(id: string): HTMLElement | null {
  return neighbourControl(
    document.querySelectorAll<HTMLElement>('[data-provider-id]'),
    (card) => card.dataset.providerId === id,
    (card) => card.querySelector<HTMLElement>('[data-provider-delete]'),
  );
}

function TestButton({ id, name }: { id: string; name?: string }) {
  const t = useTranslations('admin.providers');
  const failureText = useFailureText();
  const [result, setResult] = useState<TestResult | null>(null);
  const [pending, setPending] = useState(false);
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <BusyButton
        type="button"
        busy={pending}
        aria-label={name ? t('testOf', { name }) : undefined}
        onClick={async () => {
          setPending(true);
          setResult(
            await adminFetch<TestResult>(`/api/admin/providers/${id}/test`, { method: 'POST' }).catch(
              (e) => ({ ok: false, latencyMs: 0, model: null, error: failureText(e) }),
            ),
          );
          setPending(false);
        }}
        className="rounded border border-zinc-300 px-2 py-0.5 text-xs aria-disabled:opacity-50 dark:border-zinc-700"
      >
        {pending ? t('testing') : t('test')}
      </BusyButton>
      {result && (
        <span
          data-provider-test={result.ok ? 'ok' : 'error'}
          className={`text-xs ${result.ok ? 'text-green-700 dark:text-green-400' : 'text-red-700 dark:text-red-400'}`}
        >
          {result.ok
            ? t('testOk', { ms: result.latencyMs, model: String(result.model), reply: String(result.reply) })
            : result.error}
        </span>
      )}
    </span>
  );
}

/** The env provider (read-only), the Ollama probe, and the admin's OpenAI-compatible providers. */
export function ProvidersAdmin() {
  const t = useTranslations('admin.providers');
  const failureText = useFailureText();
  const [data, setData] = useState<Overview | null>(null);
  const [form, setForm] = useState<{ editing: ProviderView | null } | null>(null);
  const [deleting, setDeleting] = useState<ProviderView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  // The form closed (Cancel, saved): the focus it had goes back to what opened it, "Add provider" (shown
  // again in its place) or the provider's Edit button.
  const reopen = useRef<string | null>(null);
  useEffect(() => {
    const id = reopen.current;
    if (form || id === null) return;
    reopen.current = null;
    if (document.activeElement && document.activeElement !== document.body) return;
    const edit = document.querySelector<HTMLElement>(
      `[data-provider-id="${CSS.escape(id)}"] [data-provider-edit]`,
    );
    (edit ?? addButton.current)?.focus();
  }, [form]);
  const load = useCallback(
    () => adminFetch<Overview>('/api/admin/providers').then(setData, (e) => setError(failureText(e))),
    [failureText],
  );
  useEffect(() => void load(), [load]);
  // Cancelled or saved: the list is loaded again (the provider may have been changed meanwhile, as a save
  // here said: the form opens again from fresh values).
  const closeForm = () => {
    reopen.current = form?.editing?.id ?? '';
    setForm(null);
    void load();
  };

  if (!data)
    return error ? (
      <p role="alert" className="text-sm text-red-600 dark:text-red-400">
        {error}
      </p>
    ) : (
      <p className="text-sm text-zinc-500">{t('loading')}</p>
    );
  return (
    <div className="max-w-4xl space-y-6">
      <h1 className="text-xl font-semibold">{t('title')}</h1>
      {error && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
      <section className="space-y-1 rounded-lg border border-zinc-200 p-4 text-sm dark:border-zinc-800">
        <h2 className="font-semibold">{t('env')}</h2>
        {data.env.configured ? (
          <p>
            {data.env.baseURL} · {t('model')} <code>{data.env.model}</code> ·{' '}
            {data.env.hasApiKey ? t('keySet') : t('noKey')} <TestButton id="env" />
          </p>
        ) : (
          <p className="text-zinc-500">{t('envNotConfigured')}</p>
        )}
        <p className="text-zinc-500">
          {t('ollama', { url: data.ollama.baseURL })}{' '}
          {data.ollama.reachable
            ? t('ollamaReachable', {
                count: data.ollama.models.length,
                models: data.ollama.models.join(', ') || t('none'),
              })
            : t('ollamaUnreachable')}
        </p>
      </section>
      <section className="space-y-2">
        <h2 className="font-semibold">{t('added')}</h2>
        {data.items.length === 0 && <p className="text-sm text-zinc-500">{t('noneYet')}</p>}
        <ul className="space-y-2">
          {data.items.map((p) => (
            <li
              key={p.id}
              data-provider={p.name}
              data-provider-id={p.id}
              className="space-y-1 rounded-lg border border-zinc-200 p-3 text-sm dark:border-zinc-800"
            >
              <p className="font-medium">
                {p.name}{' '}
                <span className="font-normal text-zinc-500">
                  · {p.baseURL} · {p.hasApiKey ? t('keySet') : t('noKey')} ·{' '}
                  {t('toolCalling', { mode: p.toolCalling })}
                </span>
              </p>
              <p className="break-words font-mono text-xs text-zinc-500">
                {p.models.join(', ') || t('noModels')}
              </p>
              {p.error && (
                <p
                  role="alert"
                  data-provider-error
                  className="break-words text-xs text-red-700 dark:text-red-400"
                >
                  {p.error}
                </p>
              )}
              <div className="flex flex-wrap gap-2">
                <TestButton id={p.id} name={p.name} />
                <button
                  type="button"
                  data-provider-edit
                  onClick={() => setForm({ editing: p })}
                  aria-label={t('editOf', { name: p.name })}
                  className="rounded border border-zinc-300 px-2 py-0.5 text-xs dark:border-zinc-700"
                >
                  {t('edit')}
                </button>
                <button
                  type="button"
                  data-provider-delete
                  onClick={() => setDeleting(p)}
                  aria-label={t('deleteOf', { name: p.name })}
                  className="rounded border border-zinc-300 px-2 py-0.5 text-xs text-red-700 dark:border-zinc-700"
                >
                  {t('delete')}
                </button>
              </div>
            </li>
          ))}
        </ul>
        {form ? (
          <ProviderForm
            key={form.editing?.id ?? 'new'}
            editing={form.editing}
            onCancel={closeForm}
            onDone={closeForm}
          />
        ) : (
          <button
            ref={addButton}
            type="button"
            onClick={() => setForm({ editing: null })}
            className="rounded-md bg-blue-600 px-3 py-1.5 text-sm font-semibold text-white"
          >
            {t('add')}
          </button>
        )}
      </section>
      {deleting && (
        <ConfirmDialog
          title={t('deleteTitle')}
          body={t('deleteBody', { name: deleting.name })}
          confirmLabel={t('delete')}
          onCancel={() => setDeleting(null)}
          afterConfirm={() => nextDeleteButton(deleting.id) ?? addButton.current}
          onConfirm={() => {
            const id = deleting.id;
            setDeleting(null);
            void adminFetch(`/api/admin/providers/${id}`, { method: 'DELETE' }).then(load, (e) =>
              setError(failureText(e)),
            );
          }}
        />
      )}
    </div>
  );
}

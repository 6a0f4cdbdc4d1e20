'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';
import { parsePrices, pricesText } from '@/lib/usage';
import { useFailureText } from '@/app/_components/failure-text';
import { AdminApiError, adminFetch } from './admin-fetch';
import { Field, inputClass, useFocusFirstInvalid } from './field';
import { list, modelAllowText, parseModelAllow } from './provider-lists';
import { splitRefusal } from './refusal';

export type ProviderView = {
  id: string;
  name: string;
  baseURL: string;
  hasApiKey: boolean;
  models: string[];
  toolCalling: 'native' | 'prompt';
  allow: string[];
  modelAllow: Record<string, string[]>;
  noVision: string[];
  /** Per model, USD per 1M input / output tokens. */
  prices: Record<string, { input: number; output: number }>;
  createdAt: string;
  /** The version: a save sends it back as If-Match (a 409 when another admin or tab saved since). */
  updatedAt: string;
  /** Set when the stored key cannot be decrypted (ENCRYPTION_KEY changed). */
  error: string | null;
};

const PRESETS = [
  { name: 'OpenAI', baseURL: 'https://api.openai.com/v1' },
  { name: 'DeepSeek', baseURL: 'https://api.deepseek.com/v1' },
  { name: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1' },
];

type Props = { editing: ProviderView | null; onDone: () => void; onCancel: () => void };

/** The fields that show their own error (Field): a reason for one is not repeated at the form's end. */
const FIELDS = 'name baseURL apiKey toolCalling models allow modelAllow noVision prices'.split(' ');

/** Add or edit an OpenAI-compatible provider; the API key is write-only. */
export function ProviderForm({ editing, onDone, onCancel }: Props) {
  const [name, setName] = useState(editing?.name ?? '');
  const [baseURL, setBaseURL] = useState(editing?.baseURL ?? '');
  const [apiKey, setApiKey] = useState('');
  const [removeKey, setRemoveKey] = useState(false);
  const [models, setModels] = useState((editing?.models ?? []).join('\n'));
  const [toolCalling, setToolCalling] = useState<'native' | 'prompt'>(editing?.toolCalling ?? 'native');
  const [allow, setAllow] = useState((editing?.allow ?? ['*']).join(', '));
  const [modelAllow, setModelAllow] = useState(modelAllowText(editing?.modelAllow ?? {}));
  const [noVision, setNoVision] = useState((editing?.noVision ?? []).join(', '));
  const [prices, setPrices] = useState(pricesText(editing?.prices ?? {}));
  const tp = useTranslations('prices');
  const t = useTranslations('admin.providerForm');
  const failureText = useFailureText();
  const [fields, setFields] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);

  // Opened (by "Add provider" or a provider's Edit), it is where the keyboard works: its first field.
  useEffect(() => nameRef.current?.focus(), []);
  // After a refused save, the first field in error.
  useFocusFirstInvalid(formRef, fields);

  function fail(e: unknown) {
    setMessage(null);
    const refusal = splitRefusal(failureText(e), e instanceof AdminApiError ? e.fields : undefined, FIELDS);
    setFields(refusal.fields);
    setError(refusal.formError);
  }

  async function fetchModels() {
    setMessage(t('fetching'));
    setFields({});
    setError(null);
    try {
      const body =
        editing && !apiKey ? { providerId: editing.id } : { baseURL, ...(apiKey ? { apiKey } : {}) };
      const res = await adminFetch<{ models: string[] }>('/api/admin/providers/models', {
        method: 'POST',
        json: body,
      });
      setModels(res.models.join('\n'));
      setMessage(t('found', { count: res.models.length }));
    } catch (e) {
      fail(e);
    }
  }

  async function save() {
    setFields({});
    setError(null);
    const modelList = models
      .split('\n')
      .map((m) => m.trim())
      .filter(Boolean);
    const perModel = parseModelAllow(modelAllow);
    if ('line' in perModel) {
      setFields({ modelAllow: t('modelAllowError', { line: perModel.line }) });
      return;
    }
    const priced = parsePrices(prices);
    if ('line' in priced) {
      setFields({ prices: tp('lineError', { line: priced.line }) });
      return;
    }
    const body = {
      name,
      baseURL,
      models: modelList,
      toolCalling,
      allow: list(allow),
      modelAllow: perModel.value,
      noVision: list(noVision),
      prices: priced.value,
      ...(removeKey ? { apiKey: null } : apiKey ? { apiKey } : {}),
    };
    try {
      if (editing)
        await adminFetch(`/api/admin/providers/${editing.id}`, {
          method: 'PATCH',
          json: body,
          headers: { 'if-match': editing.updatedAt },
        });
      else await adminFetch('/api/admin/providers', { method: 'POST', json: body });
      onDone();
    } catch (e) {
      fail(e);
    }
  }

  return (
    <form
      ref={formRef}
      aria-label={editing ? t('editLabel', { name: editing.name }) : t('add')}
      className="grid gap-3 rounded-lg border border-zinc-200 p-4 sm:grid-cols-2 dark:border-zinc-800"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <div className="flex flex-wrap gap-2 sm:col-span-2">
        <span className="text-sm text-zinc-500">{t('presets')}</span>
        {PRESETS.map((p) => (
          <button
            key={p.name}
            type="button"
            onClick={() => {
              setName(p.name);
              setBaseURL(p.baseURL);
            }}
            className="rounded border border-zinc-300 px-2 py-0.5 text-xs dark:border-zinc-700"
          >
            {p.name}
          </button>
        ))}
      </div>
      <Field label={t('name')} error={fields.name}>
        <input
          ref={nameRef}
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          className={inputClass}
        />
      </Field>
      <Field label={t('baseURL')} error={fields.baseURL}>
        <input
          value={baseURL}
          onChange={(e) => setBaseURL(e.target.value)}
          required
          className={inputClass}
          placeholder="https://…/v1"
        />
      </Field>
      <Field label={t('apiKey')} error={fields.apiKey}>
        <input
          type="password"
          value={apiKey}
          onChange={(e) => setApiKey(e.target.value)}
          autoComplete="off"
          className={inputClass}
          placeholder={editing?.hasApiKey ? t('apiKeySaved') : t('optional')}
        />
      </Field>
      <Field label={t('toolCalling')} error={fields.toolCalling}>
        <select
          value={toolCalling}
          onChange={(e) => setToolCalling(e.target.value as 'native' | 'prompt')}
          className={inputClass}
        >
          <option value="native">{t('native')}</option>
          <option value="prompt">{t('prompt')}</option>
        </select>
      </Field>
      {editing?.hasApiKey && (
        <label className="flex items-center gap-2 text-sm sm:col-span-2">
          <input type="checkbox" checked={removeKey} onChange={(e) => setRemoveKey(e.target.checked)} />{' '}
          {t('removeKey')}
        </label>
      )}
      <div className="sm:col-span-2">
        <Field label={t('models')} error={fields.models}>
          <textarea
            value={models}
            onChange={(e) => setModels(e.target.value)}
            rows={4}
            className={`${inputClass} font-mono`}
            placeholder={t('modelsPlaceholder')}
          />
        </Field>
        <button
          type="button"
          onClick={() => void fetchModels()}
          className="mt-1 rounded border border-zinc-300 px-2 py-1 text-xs dark:border-zinc-700"
        >
          {t('fetch')}
        </button>
      </div>
      <div className="sm:col-span-2">
        <Field label={t('access')} error={fields.allow}>
          <input value={allow} onChange={(e) => setAllow(e.target.value)} className={inputClass} />
        </Field>
        <p className="mt-1 text-xs text-zinc-500">
          {t.rich('accessHelp', { code: (chunks) => <code>{chunks}</code> })}
        </p>
      </div>
      <div className="sm:col-span-2">
        <Field label={t('modelAccess')} error={fields.modelAllow}>
          <textarea
            value={modelAllow}
            onChange={(e) => setModelAllow(e.target.value)}
            rows={2}
            className={`${inputClass} font-mono`}
            placeholder={t('modelAccessPlaceholder')}
          />
        </Field>
        <p className="mt-1 text-xs text-zinc-500">{t('modelAccessHelp')}</p>
      </div>
      <div className="sm:col-span-2">
        <Field label={t('noVision')} error={fields.noVision}>
          <input value={noVision} onChange={(e) => setNoVision(e.target.value)} className={inputClass} />
        </Field>
        <p className="mt-1 text-xs text-zinc-500">{t('noVisionHelp')}</p>
      </div>
      <div className="sm:col-span-2">
        <Field label={tp('label')} error={fields.prices}>
          <textarea
            value={prices}
            onChange={(e) => setPrices(e.target.value)}
            rows={2}
            className={`${inputClass} font-mono`}
            placeholder={tp('placeholder')}
          />
        </Field>
        <p className="mt-1 text-xs text-zinc-500">{tp('help')}</p>
      </div>
      {message && (
        <p role="status" className="text-xs text-zinc-500 sm:col-span-2">
          {message}
        </p>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-600 sm:col-span-2 dark:text-red-400">
          {error}
        </p>
      )}
      <div className="flex gap-2 sm:col-span-2">
        <button type="submit" className="rounded-md bg-blue-600 px-3 py-1.5 text-sm font-semibold text-white">
          {editing ? t('save') : t('add')}
        </button>
        <button type="button" onClick={onCancel} className="rounded-md px-3 py-1.5 text-sm">
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}

'use client';

import { useTranslations } from 'next-intl';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Modal } from '@/app/_components/modal';
import { DialogActions } from './dialog-actions';
import { MAX_INSTRUCTIONS_CHARS } from '@/lib/schemas/conversations';
import type { AssistantView } from '@/lib/schemas/assistants';

type Props = {
  /** null: a new assistant. */
  assistant: AssistantView | null;
  models: Array<{ id: string; label: string }>;
  servers: string[];
  admin: boolean;
  onCancel: () => void;
  onSaved: () => void;
  /** The assistant was changed or deleted elsewhere since the form opened (the list is out of date). */
  onStale: () => void;
};

type Payload = {
  name: string;
  instructions: string;
  model: string | null;
  toolMode: 'off' | 'auto' | 'required' | null;
  servers: string[] | null;
  temperature: number | null;
  shared?: boolean;
};

const INPUT =
  'mt-1 w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-950 aria-[invalid=true]:border-red-500';

/** A field's label, hint and error (announced with the field: aria-describedby). */
function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-zinc-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

const describedBy = (id: string, hint: boolean, error: string | undefined) =>
  [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

/** Create or edit an assistant in a modal dialog; the server's field errors show beside their fields. */
export function AssistantForm({ assistant, models, servers, admin, onCancel, onSaved, onStale }: Props) {
  const t = useTranslations('assistants');
  const base = useId();
  const id = (name: string) => `${base}-${name}`;
  const [name, setName] = useState(assistant?.name ?? '');
  const [instructions, setInstructions] = useState(assistant?.instructions ?? '');
  const [model, setModel] = useState(assistant?.model ?? '');
  const [toolMode, setToolMode] = useState<string>(assistant?.toolMode ?? '');
  const [chosen, setChosen] = useState<string[]>(assistant?.servers ?? []);
  const [temperature, setTemperature] = useState(
    assistant?.temperature === null || assistant?.temperature === undefined
      ? ''
      : String(assistant.temperature),
  );
  const [shared, setShared] = useState(assistant?.shared ?? false);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Servers the assistant already names stay listed (an admin editing a shared one may not use them all).
  const serverList = [...new Set([...servers, ...(assistant?.servers ?? [])])];
  const modelList =
    assistant?.model && !models.some((m) => m.id === assistant.model)
      ? [...models, { id: assistant.model, label: assistant.model }]
      : models;

  async function submit(e: FormEvent) {
    e.preventDefault();
    const temp = temperature.trim() === '' ? null : Number(temperature);
    if (temp !== null && !Number.isFinite(temp)) {
      setFields({ temperature: t('temperatureHint') });
      return;
    }
    const payload: Payload = {
      name,
      instructions,
      model: model || null,
      toolMode: (toolMode || null) as Payload['toolMode'],
      servers: chosen.length ? chosen : null,
      temperature: temp,
      ...(admin ? { shared } : {}),
    };
    // Editing sends only what changed, so a value kept as it was is never checked again.
    const body = assistant
      ? Object.fromEntries(
          Object.entries(payload).filter(
            ([key, value]) =>
              JSON.stringify(value) !== JSON.stringify(assistant[key as keyof AssistantView] ?? null),
          ),
        )
      : payload;
    setBusy(true);
    setError(null);
    const res = await fetch(
      assistant ? `/api/assistants/${encodeURIComponent(assistant.id)}` : '/api/assistants',
      {
        method: assistant ? 'PATCH' : 'POST',
        // The version the form was opened at: a save over another tab's (or admin's) is a 409.
        headers: {
          'content-type': 'application/json',
          ...(assistant && { 'if-match': assistant.updatedAt }),
        },
        body: JSON.stringify(body),
      },
    ).catch(() => null);
    setBusy(false);
    if (res?.ok) {
      onSaved();
      return;
    }
    if (assistant && (res?.status === 409 || res?.status === 404)) {
      // Nothing was written; the draft stays in the form, the list behind it is brought up to date.
      setError(t(res.status === 409 ? 'changedSince' : 'gone'));
      onStale();
      return;
    }
    const answer = (await res?.json().catch(() => null)) as {
      error?: { message?: string; fields?: Record<string, string> };
    } | null;
    const invalid = answer?.error?.fields ?? {};
    setFields(invalid);
    // Field errors show beside their fields; the alert only says so (and the first one gets focus).
    const first = Object.keys(invalid)[0];
    setError(first ? t('checkFields') : (answer?.error?.message ?? t('saveFailed')));
    if (first) document.getElementById(id(first))?.focus();
  }

  const title = assistant ? t('editTitle', { name: assistant.name }) : t('new');
  return (
    <Modal
      title={title}
      onClose={onCancel}
      closeOnOutsideClick={false}
      className="max-h-[90dvh] w-[min(34rem,94vw)] p-5"
    >
      <form noValidate onSubmit={(e) => void submit(e)} className="mt-3 space-y-3">
        <Field id={id('name')} label={t('name')} error={fields.name}>
          <input
            id={id('name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={200}
            aria-invalid={Boolean(fields.name)}
            aria-describedby={describedBy(id('name'), false, fields.name)}
            className={INPUT}
          />
        </Field>
        <Field
          id={id('instructions')}
          label={t('instructions')}
          hint={t('instructionsHint', { max: MAX_INSTRUCTIONS_CHARS })}
          error={fields.instructions}
        >
          <textarea
            id={id('instructions')}
            value={instructions}
            onChange={(e) => setInstructions(e.target.value)}
            rows={6}
            aria-invalid={Boolean(fields.instructions)}
            aria-describedby={describedBy(id('instructions'), true, fields.instructions)}
            className={INPUT}
          />
        </Field>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id={id('model')} label={t('model')} error={fields.model}>
            <select
              id={id('model')}
              value={model}
              onChange={(e) => setModel(e.target.value)}
              aria-invalid={Boolean(fields.model)}
              aria-describedby={describedBy(id('model'), false, fields.model)}
              className={INPUT}
            >
              <option value="">{t('defaultModel')}</option>
              {modelList.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.label}
                </option>
              ))}
            </select>
          </Field>
          <Field id={id('toolMode')} label={t('toolMode')} error={fields.toolMode}>
            <select
              id={id('toolMode')}
              value={toolMode}
              onChange={(e) => setToolMode(e.target.value)}
              aria-invalid={Boolean(fields.toolMode)}
              aria-describedby={describedBy(id('toolMode'), false, fields.toolMode)}
              className={INPUT}
            >
              <option value="">{t('defaultToolMode')}</option>
              <option value="off">{t('toolModeOff')}</option>
              <option value="auto">{t('toolModeAuto')}</option>
              <option value="required">{t('toolModeRequired')}</option>
            </select>
          </Field>
        </div>
        <fieldset
          id={id('servers')}
          tabIndex={-1}
          aria-describedby={describedBy(id('servers'), true, fields.servers)}
        >
          <legend className="text-sm font-medium">{t('servers')}</legend>
          {serverList.length === 0 ? (
            <p className="mt-1 text-xs text-zinc-500">{t('noServers')}</p>
          ) : (
            <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
              {serverList.map((s) => (
                <label key={s} className="flex items-center gap-1.5 text-sm">
                  <input
                    type="checkbox"
                    checked={chosen.includes(s)}
                    onChange={(e) =>
                      setChosen((list) => (e.target.checked ? [...list, s] : list.filter((x) => x !== s)))
                    }
                  />
                  {s}
                </label>
              ))}
            </div>
          )}
          <p id={`${id('servers')}-hint`} className="mt-1 text-xs text-zinc-500">
            {t('serversHint')}
          </p>
          {fields.servers && (
            <p id={`${id('servers')}-error`} className="mt-1 text-xs text-red-600 dark:text-red-400">
              {fields.servers}
            </p>
          )}
        </fieldset>
        <Field
          id={id('temperature')}
          label={t('temperature')}
          hint={t('temperatureHint')}
          error={fields.temperature}
        >
          <input
            id={id('temperature')}
            type="number"
            inputMode="decimal"
            min={0}
            max={2}
            step={0.1}
            value={temperature}
            onChange={(e) => setTemperature(e.target.value)}
            aria-invalid={Boolean(fields.temperature)}
            aria-describedby={describedBy(id('temperature'), true, fields.temperature)}
            className={`${INPUT} sm:w-32`}
          />
        </Field>
        {admin && (
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} />
            {t('shareWithEveryone')}
          </label>
        )}
        <DialogActions
          error={error}
          submit={assistant ? t('save') : t('create')}
          busy={busy}
          onCancel={onCancel}
        />
      </form>
    </Modal>
  );
}

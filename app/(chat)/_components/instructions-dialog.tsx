'use client';

import { useTranslations } from 'next-intl';
import { type FormEvent, useId, useState } from 'react';
import { Modal } from '@/app/_components/modal';
import { DialogActions } from './dialog-actions';
import { MAX_INSTRUCTIONS_CHARS } from '@/lib/schemas/conversations';

type Props = {
  conversationId: string;
  instructions: string;
  onSaved: (instructions: string) => void;
  onClose: () => void;
  /** Where focus goes when it closes, when not where it was on opening (see Modal). */
  returnFocus?: () => HTMLElement | null | undefined;
};

/** A conversation's own instructions (the system message of its next answers), edited from the header. */
export function InstructionsDialog({ conversationId, instructions, onSaved, onClose, returnFocus }: Props) {
  const t = useTranslations('instructions');
  const id = useId();
  const [value, setValue] = useState(instructions);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const res = await fetch(`/api/conversations/${encodeURIComponent(conversationId)}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ instructions: value }),
    }).catch(() => null);
    setBusy(false);
    if (res?.ok) {
      onSaved(value.trim() ? value : '');
      onClose();
      return;
    }
    const answer = (await res?.json().catch(() => null)) as {
      error?: { message?: string; fields?: Record<string, string> };
    } | null;
    setError(answer?.error?.fields?.instructions ?? answer?.error?.message ?? t('failed'));
  }

  return (
    <Modal
      title={t('title')}
      onClose={onClose}
      returnFocus={returnFocus}
      closeOnOutsideClick={false}
      className="w-[min(34rem,94vw)] p-5"
    >
      <form onSubmit={(e) => void save(e)} className="mt-3 space-y-2">
        <label htmlFor={id} className="block text-sm font-medium">
          {t('label')}
        </label>
        <textarea
          id={id}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          rows={8}
          aria-invalid={Boolean(error)}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          className="w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-950 aria-[invalid=true]:border-red-500"
        />
        <p id={`${id}-hint`} className="text-xs text-zinc-500">
          {t('hint', { max: MAX_INSTRUCTIONS_CHARS })}
        </p>
        <DialogActions
          error={error}
          errorId={`${id}-error`}
          submit={t('save')}
          busy={busy}
          onCancel={onClose}
        />
      </form>
    </Modal>
  );
}

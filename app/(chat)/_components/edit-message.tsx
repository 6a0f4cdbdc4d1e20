'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { isTooLong, TooLongAlert } from './too-long-alert';
import { isInputMethodKey } from '@/app/_components/input-method';

type Props = { initial: string; onSave: (text: string) => void; onCancel: () => void };

/** Edit and resend: the edit becomes a new version of the message; the old one and its answers are kept. */
export function EditMessage({ initial, onSave, onCancel }: Props) {
  const t = useTranslations('editMessage');
  const tc = useTranslations('common');
  const [text, setText] = useState(initial);
  const empty = !text.trim();
  const tooLong = isTooLong(text);
  return (
    <form
      className="w-full max-w-[85%] space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (!empty && !tooLong) onSave(text.trim());
      }}
    >
      <textarea
        aria-label={t('label')}
        value={text}
        autoFocus
        onChange={(e) => setText(e.target.value)}
        // Escape that closes an input method's candidates is not a cancel (the edit would be lost).
        onKeyDown={(e) => e.key === 'Escape' && !isInputMethodKey(e) && onCancel()}
        className="min-h-20 w-full rounded-xl border border-blue-500 bg-white p-3 text-sm dark:bg-zinc-900"
      />
      {tooLong ? <TooLongAlert text={text} /> : <p className="text-xs text-zinc-500">{t('hint')}</p>}
      <div className="flex justify-end gap-2">
        <button
          type="button"
          onClick={onCancel}
          className="rounded-md px-3 py-1 text-xs hover:bg-zinc-100 dark:hover:bg-zinc-800"
        >
          {tc('cancel')}
        </button>
        <button
          type="submit"
          disabled={empty || tooLong}
          className="rounded-md bg-blue-600 px-3 py-1 text-xs font-semibold text-white hover:bg-blue-700 disabled:opacity-50"
        >
          {t('save')}
        </button>
      </div>
    </form>
  );
}

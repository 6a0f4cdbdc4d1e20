'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { BusyButton } from '@/app/_components/busy-button';

/** Copies the shared snapshot into a new conversation of the signed-in viewer and opens it. */
export function ContinueButton({ token }: { token: string }) {
  const t = useTranslations('sharePage');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function start() {
    setBusy(true);
    setError(null);
    let failure = t('continueFailed');
    try {
      const res = await fetch(`/api/shares/${encodeURIComponent(token)}/continue`, { method: 'POST' });
      if (res.status === 201) {
        const { id } = (await res.json()) as { id: string };
        window.location.assign(`/c/${encodeURIComponent(id)}`);
        return;
      }
      if (res.status === 404) failure = t('gone');
    } catch {
      // offline: the general failure
    }
    setError(failure);
    setBusy(false);
  }

  return (
    <div className="flex flex-col items-start gap-1">
      <BusyButton
        type="button"
        onClick={() => void start()}
        busy={busy}
        className="rounded-md bg-zinc-900 px-3 py-1.5 text-sm font-semibold text-white hover:bg-zinc-700 aria-disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
      >
        {busy ? t('starting') : t('continue')}
      </BusyButton>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

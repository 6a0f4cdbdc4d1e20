'use client';

import { useState } from 'react';

/** Copies the shared snapshot into a new conversation of the signed-in viewer and opens it. */
export function ContinueButton({ token }: { token: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function start() {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(`/api/shares/${encodeURIComponent(token)}/continue`, { method: 'POST' });
      if (res.status !== 201)
        throw new Error(
          res.status === 404 ? 'This link is no longer available.' : 'Could not start a new chat.',
        );
      const { id } = (await res.json()) as { id: string };
      window.location.assign(`/c/${encodeURIComponent(id)}`);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Could not start a new chat.');
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col items-start gap-1">
      <button
        type="button"
        onClick={() => void start()}
        disabled={busy}
        className="rounded-md bg-zinc-900 px-3 py-1.5 text-sm font-semibold text-white hover:bg-zinc-700 disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
      >
        {busy ? 'Starting…' : 'Continue in a new chat'}
      </button>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

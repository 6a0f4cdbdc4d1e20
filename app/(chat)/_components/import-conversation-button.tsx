'use client';

import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { notifyConversationsChanged } from '@/lib/conversation-events';

const MAX_BYTES = 10 * 1024 * 1024;

/** Why the import failed, in the API's own words when it gave any. */
async function errorMessage(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string' && body.error.message) return body.error.message;
  } catch {
    // not JSON: fall through
  }
  return `Import failed (HTTP ${res.status}).`;
}

/** "Import conversation": picks a JSON export, posts it, and opens the new conversation. */
export function ImportConversationButton() {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const router = useRouter();

  async function importFile(file: File) {
    setError(null);
    if (file.size > MAX_BYTES) return setError('That file is larger than 10 MB.');
    let data: unknown;
    try {
      data = JSON.parse(await file.text());
    } catch {
      return setError('That file is not valid JSON.');
    }
    setBusy(true);
    try {
      const res = await fetch('/api/conversations/import', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(data),
      });
      if (!res.ok) return setError(await errorMessage(res));
      const { id } = (await res.json()) as { id: string };
      router.push(`/c/${id}`);
      notifyConversationsChanged();
    } catch {
      setError('Import failed: the server could not be reached.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <input
        ref={input}
        type="file"
        accept="application/json,.json"
        aria-label="Import conversation"
        className="hidden"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = ''; // picking the same file again fires change again
          if (file) void importFile(file);
        }}
      />
      <button
        type="button"
        onClick={() => input.current?.click()}
        disabled={busy}
        className="text-zinc-600 hover:underline disabled:opacity-50 dark:text-zinc-400"
      >
        {busy ? 'Importing…' : 'Import conversation'}
      </button>
      {error && (
        <p
          role="alert"
          className="order-last mt-1 w-full basis-full rounded-md bg-red-50 px-2 py-1 text-xs text-red-700 dark:bg-red-950/50 dark:text-red-300"
        >
          {error}
        </p>
      )}
    </>
  );
}

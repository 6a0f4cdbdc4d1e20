'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useRef, useState } from 'react';
import { BusyButton } from '@/app/_components/busy-button';
import { parseConversationMarkdown } from '@/lib/chat/import-markdown';
import { notifyConversationsChanged } from '@/lib/conversation-events';

const MAX_BYTES = 10 * 1024 * 1024;

/** The API's own words when it gave any. */
async function apiMessage(res: Response): Promise<string | null> {
  try {
    const body = (await res.json()) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string' && body.error.message) return body.error.message;
  } catch {
    // not JSON: fall through
  }
  return null;
}

const isMarkdown = (file: File) => /\.(md|markdown)$/i.test(file.name) || file.type === 'text/markdown';

/**
 * "Import conversation": picks an export (JSON, or the Markdown export read back as text messages), posts
 * it, and opens the new conversation.
 */
export function ImportConversationButton() {
  const t = useTranslations('importConversation');
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const router = useRouter();

  async function importFile(file: File) {
    setError(null);
    // A JSON export may carry attachments (inlined): its limit is the server's, which answers 413 with why.
    if (isMarkdown(file) && file.size > MAX_BYTES) return setError(t('tooLarge'));
    let data: unknown;
    if (isMarkdown(file)) {
      data = parseConversationMarkdown(await file.text());
      if (!data) return setError(t('notMarkdownExport'));
    } else {
      try {
        data = JSON.parse(await file.text());
      } catch {
        return setError(t('notJson'));
      }
    }
    setBusy(true);
    try {
      const res = await fetch('/api/conversations/import', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(data),
      });
      if (!res.ok) return setError((await apiMessage(res)) ?? t('failedStatus', { status: res.status }));
      const { id } = (await res.json()) as { id: string };
      router.push(`/c/${id}`);
      notifyConversationsChanged();
    } catch {
      setError(t('unreachable'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <input
        ref={input}
        type="file"
        accept="application/json,.json,text/markdown,.md,.markdown"
        aria-label={t('label')}
        className="hidden"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = ''; // picking the same file again fires change again
          if (file) void importFile(file);
        }}
      />
      <BusyButton
        type="button"
        onClick={() => input.current?.click()}
        busy={busy}
        className="text-zinc-600 hover:underline aria-disabled:opacity-50 dark:text-zinc-400"
      >
        {busy ? t('importing') : t('label')}
      </BusyButton>
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

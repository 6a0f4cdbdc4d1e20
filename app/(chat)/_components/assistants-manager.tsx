'use client';

import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useRef, useState } from 'react';
import { neighbourControl } from '@/app/_components/neighbour-focus';
import type { AssistantView } from '@/lib/schemas/assistants';
import { AssistantForm } from './assistant-form';
import { ConfirmDialog } from './confirm-dialog';

type Props = {
  initial: AssistantView[];
  models: Array<{ id: string; label: string }>;
  servers: string[];
  admin: boolean;
};

const BUTTON =
  'rounded-md border border-zinc-300 px-2.5 py-1 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800';

/**
 * Once an assistant's delete is confirmed (its card is about to go): the next card's Delete (its "New chat
 * with …" link when it is not the user's to delete), or the card above's.
 */
function nextCardControl(id: string): HTMLElement | null {
  return neighbourControl(
    document.querySelectorAll<HTMLElement>('[data-assistant-id]'),
    (card) => card.dataset.assistantId === id,
    (card) => card.querySelector<HTMLElement>('[data-assistant-delete]') ?? card.querySelector('a'),
  );
}

/** The assistants page: the user's own and the shared ones, each with "New chat with …", Edit and Delete. */
export function AssistantsManager({ initial, models, servers, admin }: Props) {
  const t = useTranslations('assistants');
  const [items, setItems] = useState(initial);
  const [editing, setEditing] = useState<AssistantView | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AssistantView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const newButton = useRef<HTMLButtonElement>(null);

  async function reload() {
    try {
      const res = await fetch('/api/assistants', { cache: 'no-store' });
      if (!res.ok) throw new Error();
      setItems(((await res.json()) as { items: AssistantView[] }).items);
      setError(null);
    } catch {
      setError(t('loadFailed'));
    }
  }

  async function remove(item: AssistantView) {
    setDeleting(null);
    const res = await fetch(`/api/assistants/${encodeURIComponent(item.id)}`, { method: 'DELETE' }).catch(
      () => null,
    );
    if (res?.ok || res?.status === 404) {
      setItems((list) => list.filter((a) => a.id !== item.id));
      setAnnouncement(t('deleted'));
    } else setError(t('deleteFailed'));
  }

  const modelLabel = (id: string | null) => (id ? (models.find((m) => m.id === id)?.label ?? id) : null);

  return (
    <div className="mx-auto max-w-3xl px-4 py-6 pl-12 md:pl-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-lg font-semibold">{t('title')}</h1>
          <p className="text-sm text-zinc-500">{t('intro')}</p>
        </div>
        <button
          ref={newButton}
          type="button"
          onClick={() => setEditing('new')}
          className="rounded-md bg-blue-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-blue-700"
        >
          {t('new')}
        </button>
      </div>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {error && (
        <p role="alert" className="mt-4 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
      {items.length === 0 ? (
        <p className="mt-8 text-center text-sm text-zinc-500">{t('empty')}</p>
      ) : (
        <ul className="mt-6 space-y-3">
          {items.map((item) => (
            <li
              key={item.id}
              data-assistant={item.name}
              data-assistant-id={item.id}
              className="rounded-lg border border-zinc-200 p-3 dark:border-zinc-800"
            >
              <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
                <h2 className="min-w-0 break-words font-medium">{item.name}</h2>
                {item.shared && (
                  <span className="rounded bg-blue-100 px-1.5 py-0.5 text-xs text-blue-800 dark:bg-blue-950 dark:text-blue-200">
                    {t('shared')}
                  </span>
                )}
                {item.model && <span className="text-xs text-zinc-500">{modelLabel(item.model)}</span>}
              </div>
              {item.instructions && (
                <p className="mt-1 line-clamp-2 whitespace-pre-wrap break-words text-sm text-zinc-600 dark:text-zinc-400">
                  {item.instructions}
                </p>
              )}
              <div className="mt-2 flex flex-wrap gap-2">
                <Link
                  href={`/?assistant=${encodeURIComponent(item.id)}`}
                  className="rounded-md bg-zinc-900 px-2.5 py-1 text-sm text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
                >
                  {t('newChatWith', { name: item.name })}
                </Link>
                {item.editable && (
                  <>
                    <button
                      type="button"
                      onClick={() => setEditing(item)}
                      aria-label={t('editTitle', { name: item.name })}
                      className={BUTTON}
                    >
                      {t('edit')}
                    </button>
                    <button
                      type="button"
                      data-assistant-delete
                      onClick={() => setDeleting(item)}
                      aria-label={t('deleteNamed', { name: item.name })}
                      className="rounded-md border border-red-300 px-2.5 py-1 text-sm text-red-700 hover:bg-red-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950"
                    >
                      {t('delete')}
                    </button>
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {editing && (
        <AssistantForm
          assistant={editing === 'new' ? null : editing}
          models={models}
          servers={servers}
          admin={admin}
          onCancel={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            setAnnouncement(t('saved'));
            void reload();
          }}
          onStale={() => void reload()}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('deleteTitle')}
          body={t('deleteBody', { name: deleting.name })}
          confirmLabel={t('delete')}
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
          afterConfirm={() => nextCardControl(deleting.id) ?? newButton.current}
        />
      )}
    </div>
  );
}

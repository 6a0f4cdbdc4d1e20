'use client';

import { Pencil, Trash2 } from 'lucide-react';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';
import { Tooltip } from '@/app/_components/tooltip';
import { ConfirmDialog } from './confirm-dialog';
import { isInputMethodKey } from '@/app/_components/input-method';

export type ConversationSummary = { id: string; title: string; updatedAt: string };

type Props = {
  item: ConversationSummary;
  active: boolean;
  onRename: (title: string) => Promise<void>;
  onDelete: () => Promise<void>;
};

/** A sidebar row: link to the conversation, rename in place, delete after a confirm. */
export function ConversationItem({ item, active, onRename, onDelete }: Props) {
  const t = useTranslations('conversationItem');
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  /** The rename ended by a key (Enter, Escape) in its field: the focus goes back to the Rename button. */
  const refocus = useRef(false);
  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    renameButton.current?.focus();
  }, [editing]);

  if (editing) {
    return (
      <form
        className="px-2 py-1"
        onSubmit={(e) => {
          e.preventDefault();
          const title = String(new FormData(e.currentTarget).get('title') ?? '').trim();
          // Enter, with the field focused; a blur (a click elsewhere) leaves the focus where it went.
          refocus.current = e.currentTarget.contains(document.activeElement);
          setEditing(false);
          if (title && title !== item.title) void onRename(title);
        }}
      >
        <input
          name="title"
          aria-label={t('titleLabel')}
          defaultValue={item.title}
          autoFocus
          maxLength={200}
          onKeyDown={(e) => {
            if (e.key !== 'Escape' || isInputMethodKey(e)) return;
            refocus.current = true;
            setEditing(false);
          }}
          onBlur={(e) => e.currentTarget.form?.requestSubmit()}
          className="w-full rounded border border-blue-500 bg-white px-2 py-1 text-sm dark:bg-zinc-900"
        />
      </form>
    );
  }

  return (
    <div
      className={`group flex items-center rounded-md ${active ? 'bg-zinc-200 dark:bg-zinc-800' : 'hover:bg-zinc-100 dark:hover:bg-zinc-900'}`}
    >
      <Link
        href={`/c/${item.id}`}
        aria-current={active ? 'page' : undefined}
        className="min-w-0 flex-1 truncate px-3 py-2 text-sm"
        title={item.title}
      >
        {item.title}
      </Link>
      <div className="flex shrink-0 gap-0.5 pr-1 opacity-100 md:opacity-0 md:group-focus-within:opacity-100 md:group-hover:opacity-100">
        <Tooltip label={t('rename')}>
          <button
            ref={renameButton}
            type="button"
            aria-label={t('renameNamed', { title: item.title })}
            onClick={() => setEditing(true)}
            className="rounded p-1 text-xs text-zinc-500 hover:bg-zinc-300 dark:hover:bg-zinc-700"
          >
            <Pencil aria-hidden className="size-3.5" />
          </button>
        </Tooltip>
        <Tooltip label={t('delete')}>
          <button
            type="button"
            aria-label={t('deleteNamed', { title: item.title })}
            onClick={() => setConfirming(true)}
            className="rounded p-1 text-xs text-zinc-500 hover:bg-zinc-300 dark:hover:bg-zinc-700"
          >
            <Trash2 aria-hidden className="size-3.5" />
          </button>
        </Tooltip>
      </div>
      {confirming && (
        <ConfirmDialog
          title={t('confirmTitle')}
          body={t('confirmBody', { title: item.title })}
          confirmLabel={t('delete')}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void onDelete();
          }}
        />
      )}
    </div>
  );
}

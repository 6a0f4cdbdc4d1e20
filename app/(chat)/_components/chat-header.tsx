'use client';

import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useTranslations } from 'next-intl';
import { lazy, Suspense, useState } from 'react';
import { ConversationUsage } from './conversation-usage';

/** Loaded when first opened, not with the page. */
const ShareDialog = lazy(() => import('./share-dialog').then((m) => ({ default: m.ShareDialog })));
const InstructionsDialog = lazy(() =>
  import('./instructions-dialog').then((m) => ({ default: m.InstructionsDialog })),
);

type Props = {
  conversationId: string | null;
  title: string;
  /** The assistant the conversation was started with. */
  assistantName?: string | null;
  /** The conversation's own instructions ("Instructions" edits them). */
  instructions?: string;
  onInstructionsSaved?: (instructions: string) => void;
};

const ITEM =
  'block cursor-pointer rounded px-2 py-1.5 text-sm outline-none data-[highlighted]:bg-zinc-100 dark:data-[highlighted]:bg-zinc-800';

/**
 * The bar over the messages: the title and the conversation's assistant, and for a saved conversation
 * "Usage", "Instructions", "Share" and "Export" (a Radix dropdown menu of the two download links).
 */
export function ChatHeader({
  conversationId,
  title,
  assistantName = null,
  instructions = '',
  onInstructionsSaved,
}: Props) {
  const t = useTranslations('assistants');
  const ti = useTranslations('instructions');
  const th = useTranslations('chatHeader');
  const [sharing, setSharing] = useState(false);
  const [editingInstructions, setEditingInstructions] = useState(false);
  const base = conversationId ? `/api/conversations/${encodeURIComponent(conversationId)}/export` : '';

  return (
    <header className="flex h-11 shrink-0 items-center gap-2 border-b border-zinc-200 pl-12 pr-3 md:pl-4 dark:border-zinc-800">
      <h1 className="min-w-0 flex-1 truncate text-sm font-medium" title={title}>
        {title}
      </h1>
      {assistantName && (
        <span
          title={t('assistantLabel', { name: assistantName })}
          className="max-w-[40%] shrink truncate rounded bg-blue-100 px-1.5 py-0.5 text-xs text-blue-800 dark:bg-blue-950 dark:text-blue-200"
        >
          {assistantName}
        </span>
      )}
      {conversationId && (
        <>
          <ConversationUsage conversationId={conversationId} />
          <button
            type="button"
            onClick={() => setEditingInstructions(true)}
            className="rounded-md border border-zinc-300 px-2.5 py-1 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
          >
            {ti('button')}
          </button>
          <button
            type="button"
            onClick={() => setSharing(true)}
            className="rounded-md border border-zinc-300 px-2.5 py-1 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
          >
            {th('share')}
          </button>
          <DropdownMenu.Root>
            <DropdownMenu.Trigger className="rounded-md border border-zinc-300 px-2.5 py-1 text-sm hover:bg-zinc-100 data-[state=open]:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800 dark:data-[state=open]:bg-zinc-800">
              {th('export')}
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content
                align="end"
                sideOffset={4}
                collisionPadding={8}
                className="z-30 min-w-36 rounded-md border border-zinc-200 bg-white p-1 text-zinc-900 shadow-lg dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
              >
                <DropdownMenu.Item asChild className={ITEM}>
                  <a href={`${base}?format=md`} download>
                    {th('markdown')}
                  </a>
                </DropdownMenu.Item>
                <DropdownMenu.Item asChild className={ITEM}>
                  <a href={`${base}?format=json`} download>
                    {th('json')}
                  </a>
                </DropdownMenu.Item>
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
          {editingInstructions && (
            <Suspense fallback={null}>
              <InstructionsDialog
                conversationId={conversationId}
                instructions={instructions}
                onSaved={(value) => onInstructionsSaved?.(value)}
                onClose={() => setEditingInstructions(false)}
              />
            </Suspense>
          )}
          {sharing && (
            <Suspense fallback={null}>
              <ShareDialog conversationId={conversationId} onClose={() => setSharing(false)} />
            </Suspense>
          )}
        </>
      )}
    </header>
  );
}

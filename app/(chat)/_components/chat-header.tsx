'use client';

import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Ellipsis } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { lazy, Suspense, useRef, useState } from 'react';
import { Tooltip } from '@/app/_components/tooltip';
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
const BUTTON =
  'rounded-md border border-zinc-300 px-2.5 py-1 text-sm hover:bg-zinc-100 data-[state=open]:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800 dark:data-[state=open]:bg-zinc-800';
const MENU =
  'z-30 min-w-36 rounded-md border border-zinc-200 bg-white p-1 text-zinc-900 shadow-lg dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100';

/**
 * The bar over the messages: the title and the conversation's assistant, and for a saved conversation
 * "Usage", "Instructions", "Share" and "Export" (a Radix dropdown menu of the two download links). On a
 * phone-wide screen (below `sm`) Instructions, Share and Export move into one "More actions" menu, so the
 * title keeps its room; only one of the two sets is displayed (the other is display:none, out of the
 * accessibility tree).
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
  const more = useRef<HTMLButtonElement>(null);
  /** A dialog was opened from the "More actions" menu, whose item is gone when it closes. */
  const [fromMenu, setFromMenu] = useState(false);
  /** An item of "More actions" was chosen: its dialog keeps the focus as the menu closes. */
  const chose = useRef(false);
  const returnFocus = fromMenu ? () => more.current : undefined;
  const exportLinks = (
    <>
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
    </>
  );

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
          <div className="hidden items-center gap-2 sm:flex">
            <button
              type="button"
              onClick={() => {
                setFromMenu(false);
                setEditingInstructions(true);
              }}
              className={BUTTON}
            >
              {ti('button')}
            </button>
            <button
              type="button"
              onClick={() => {
                setFromMenu(false);
                setSharing(true);
              }}
              className={BUTTON}
            >
              {th('share')}
            </button>
            <DropdownMenu.Root>
              <DropdownMenu.Trigger className={BUTTON}>{th('export')}</DropdownMenu.Trigger>
              <DropdownMenu.Portal>
                <DropdownMenu.Content align="end" sideOffset={4} collisionPadding={8} className={MENU}>
                  {exportLinks}
                </DropdownMenu.Content>
              </DropdownMenu.Portal>
            </DropdownMenu.Root>
          </div>
          <DropdownMenu.Root
            onOpenChange={(open) => {
              if (open) chose.current = false;
            }}
          >
            <Tooltip label={th('more')}>
              <DropdownMenu.Trigger
                ref={more}
                aria-label={th('more')}
                className="inline-flex shrink-0 items-center rounded-md border border-zinc-300 px-2 py-1.5 hover:bg-zinc-100 data-[state=open]:bg-zinc-100 sm:hidden dark:border-zinc-700 dark:hover:bg-zinc-800 dark:data-[state=open]:bg-zinc-800"
              >
                <Ellipsis aria-hidden className="size-4" />
              </DropdownMenu.Trigger>
            </Tooltip>
            <DropdownMenu.Portal>
              <DropdownMenu.Content
                align="end"
                sideOffset={4}
                collisionPadding={8}
                onCloseAutoFocus={(e) => {
                  if (chose.current) e.preventDefault();
                }}
                className={MENU}
              >
                <DropdownMenu.Item
                  className={ITEM}
                  onSelect={() => {
                    chose.current = true;
                    setFromMenu(true);
                    setEditingInstructions(true);
                  }}
                >
                  {ti('button')}
                </DropdownMenu.Item>
                <DropdownMenu.Item
                  className={ITEM}
                  onSelect={() => {
                    chose.current = true;
                    setFromMenu(true);
                    setSharing(true);
                  }}
                >
                  {th('share')}
                </DropdownMenu.Item>
                <DropdownMenu.Separator className="my-1 h-px bg-zinc-200 dark:bg-zinc-700" />
                <DropdownMenu.Group aria-label={th('export')}>
                  <DropdownMenu.Label aria-hidden className="px-2 py-1 text-xs text-zinc-500">
                    {th('export')}
                  </DropdownMenu.Label>
                  {exportLinks}
                </DropdownMenu.Group>
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
                returnFocus={returnFocus}
              />
            </Suspense>
          )}
          {sharing && (
            <Suspense fallback={null}>
              <ShareDialog
                conversationId={conversationId}
                onClose={() => setSharing(false)}
                returnFocus={returnFocus}
              />
            </Suspense>
          )}
        </>
      )}
    </header>
  );
}

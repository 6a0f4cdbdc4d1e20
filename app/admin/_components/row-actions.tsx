'use client';

import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Ellipsis } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { useRef } from 'react';

export type RowAction = {
  label: string;
  onSelect: () => void;
  disabled?: boolean;
  danger?: boolean;
  /** It opens a dialog, which takes the focus (and gives it back); otherwise the focus goes back to the button. */
  opensDialog?: boolean;
};

/**
 * The actions of one row of an admin table (Enable/Disable, Edit, Delete…) behind one button, "Actions for
 * <name>", so rows keep one line at every width. A Radix dropdown menu: arrow keys, typeahead, Esc, focus
 * back on the button when the menu closes, unless the chosen action opened a dialog (which has it then).
 */
export function RowActions({ name, actions }: { name: string; actions: RowAction[] }) {
  const t = useTranslations('admin');
  const choseDialog = useRef(false);
  return (
    <DropdownMenu.Root
      onOpenChange={(open) => {
        if (open) choseDialog.current = false;
      }}
    >
      <DropdownMenu.Trigger
        aria-label={t('actionsFor', { name })}
        className="inline-flex items-center rounded-md border border-zinc-300 px-2 py-1 hover:bg-zinc-100 data-[state=open]:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800 dark:data-[state=open]:bg-zinc-800"
      >
        <Ellipsis aria-hidden className="size-4" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          onCloseAutoFocus={(e) => {
            if (choseDialog.current) e.preventDefault();
          }}
          className="z-50 min-w-36 rounded-md border border-zinc-200 bg-white p-1 text-sm shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
        >
          {actions.map((a) => (
            <DropdownMenu.Item
              key={a.label}
              disabled={a.disabled}
              onSelect={() => {
                choseDialog.current = a.opensDialog === true;
                a.onSelect();
              }}
              className={`cursor-pointer rounded px-2 py-1.5 outline-none data-[disabled]:cursor-default data-[highlighted]:bg-zinc-100 data-[disabled]:opacity-50 dark:data-[highlighted]:bg-zinc-800 ${a.danger ? 'text-red-700 dark:text-red-300' : ''}`}
            >
              {a.label}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

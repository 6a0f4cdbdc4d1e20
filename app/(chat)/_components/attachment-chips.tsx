import { X } from 'lucide-react';
import { useFormatter, useTranslations } from 'next-intl';
import { Tooltip } from '@/app/_components/tooltip';

/** An MCP resource attached to a message with `@` (the server reads it when the message is sent). */
export type ResourceAttachment = {
  server: string;
  uri: string;
  name: string;
  /** Read again after the server said it changed (a sent message's chip shows "updated"). */
  updatedAt?: string;
};

type Props = { items: ResourceAttachment[]; onRemove?: (item: ResourceAttachment) => void };

/** Resource chips: above the message box (removable), or under a sent user message (read-only, no `onRemove`). */
export function AttachmentChips({ items, onRemove }: Props) {
  const t = useTranslations('resourceChips');
  const format = useFormatter();
  if (!items.length) return null;
  return (
    <ul aria-label={t('list')} className="flex flex-wrap gap-1.5">
      {items.map((item) => (
        <li
          key={`${item.server} ${item.uri}`}
          data-resource-chip={item.uri}
          title={`${item.server} · ${item.uri}`}
          className="inline-flex max-w-full items-center gap-1 rounded-full border border-zinc-300 bg-zinc-50 py-0.5 pr-1 pl-2.5 text-xs text-zinc-800 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-200"
        >
          <span aria-hidden className="text-zinc-400">
            @
          </span>
          <span className="truncate font-medium">{item.name}</span>
          {item.updatedAt && (
            <span
              data-resource-updated={item.updatedAt}
              title={t('updatedTitle', {
                time: format.dateTime(new Date(item.updatedAt), { dateStyle: 'short', timeStyle: 'medium' }),
              })}
              className="rounded-full bg-blue-100 px-1.5 text-blue-800 dark:bg-blue-900 dark:text-blue-200"
            >
              {t('updated')}
            </span>
          )}
          {onRemove ? (
            <Tooltip label={t('remove', { name: item.name })}>
              <button
                type="button"
                aria-label={t('remove', { name: item.name })}
                onClick={() => onRemove(item)}
                className="grid size-5 place-items-center rounded-full text-zinc-500 hover:bg-zinc-200 hover:text-zinc-900 dark:hover:bg-zinc-700 dark:hover:text-zinc-100"
              >
                <X aria-hidden className="size-3.5" />
              </button>
            </Tooltip>
          ) : (
            <span className="pr-1.5" />
          )}
        </li>
      ))}
    </ul>
  );
}

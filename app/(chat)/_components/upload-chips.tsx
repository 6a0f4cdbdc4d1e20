'use client';

import { FileText, X } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { Tooltip } from '@/app/_components/tooltip';
import { formatSize } from '@/lib/files/sniff';
import type { Upload } from './use-uploads';

type Props = { uploads: Upload[]; onRemove: (key: string) => void };

/** The files attached in the composer: name, size, a preview for images, progress while uploading, remove. */
export function UploadChips({ uploads, onRemove }: Props) {
  const t = useTranslations('attachments');
  if (!uploads.length) return null;
  return (
    <ul aria-label={t('composerList')} className="flex flex-wrap gap-1.5">
      {uploads.map((u) => (
        <li
          key={u.key}
          data-upload-chip={u.name}
          data-status={u.status}
          className={`inline-flex max-w-full items-center gap-1.5 rounded-lg border py-1 pr-1 pl-1.5 text-xs ${
            u.status === 'error'
              ? 'border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200'
              : 'border-zinc-300 bg-zinc-50 text-zinc-800 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-200'
          }`}
        >
          {u.preview ? (
            // biome-ignore lint/performance/noImgElement: a blob: URL of the file being attached
            <img src={u.preview} alt="" className="size-8 shrink-0 rounded object-cover" />
          ) : (
            <span
              aria-hidden
              className="grid size-8 shrink-0 place-items-center rounded bg-zinc-200 text-zinc-600 dark:bg-zinc-700 dark:text-zinc-300"
            >
              <FileText className="size-4" />
            </span>
          )}
          <span className="flex min-w-0 flex-col">
            <span className="truncate font-medium">{u.name}</span>
            <span className="text-zinc-500 dark:text-zinc-400">
              {u.status === 'error' ? (
                <span role="alert">{t('failed', { error: u.error ?? '' })}</span>
              ) : (
                formatSize(u.size)
              )}
            </span>
            {u.status === 'uploading' && (
              <progress
                aria-label={t('uploading', { name: u.name })}
                value={u.progress}
                max={1}
                className="mt-0.5 h-1 w-24 overflow-hidden rounded [&::-webkit-progress-bar]:bg-zinc-200 [&::-webkit-progress-value]:bg-blue-600"
              />
            )}
          </span>
          <Tooltip label={t('remove', { name: u.name })}>
            <button
              type="button"
              aria-label={t('remove', { name: u.name })}
              onClick={() => onRemove(u.key)}
              className="grid size-6 shrink-0 place-items-center rounded-full text-zinc-500 hover:bg-zinc-200 hover:text-zinc-900 dark:hover:bg-zinc-700 dark:hover:text-zinc-100"
            >
              <X aria-hidden className="size-4" />
            </button>
          </Tooltip>
        </li>
      ))}
    </ul>
  );
}

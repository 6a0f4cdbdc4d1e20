import { FileText } from 'lucide-react';
import { useTranslations } from 'next-intl';

/** An attachment as a message shows it; `url` is where the viewer may read it (the owner's, or a share's). */
export type ShownFile = { url: string; name: string; mediaType: string };

/**
 * A sent message's attachments: images as previews (opening the full image in a new tab), other files as
 * chips that download them. Served from our own origin (/api/files), so the page's CSP allows them.
 */
export function FileAttachments({ files }: { files: ShownFile[] }) {
  const t = useTranslations('attachments');
  if (!files.length) return null;
  return (
    <ul aria-label={t('messageList')} className="mb-1 flex max-w-[85%] flex-wrap justify-end gap-1.5">
      {files.map((f, i) => (
        <li key={`${f.url} ${i}`} data-file-attachment={f.name} data-media-type={f.mediaType}>
          {f.mediaType.startsWith('image/') ? (
            <a href={f.url} target="_blank" rel="noopener noreferrer" title={t('open', { name: f.name })}>
              {/* biome-ignore lint/performance/noImgElement: a private file of ours, not something next/image may fetch and cache */}
              <img
                src={f.url}
                alt={f.name}
                loading="lazy"
                className="max-h-48 max-w-64 rounded-lg border border-zinc-200 object-contain dark:border-zinc-700"
              />
            </a>
          ) : (
            <a
              href={f.url}
              download={f.name}
              title={t('download', { name: f.name })}
              className="inline-flex max-w-64 items-center gap-1.5 rounded-lg border border-zinc-300 bg-zinc-50 px-2 py-1 text-xs text-zinc-800 hover:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-200 dark:hover:bg-zinc-700"
            >
              <FileText aria-hidden className="size-3.5 shrink-0" />
              <span className="truncate font-medium">{f.name}</span>
            </a>
          )}
        </li>
      ))}
    </ul>
  );
}

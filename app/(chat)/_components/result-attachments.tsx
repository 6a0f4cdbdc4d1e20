import { useTranslations } from 'next-intl';
import { formatSize } from '@/lib/files/sniff';
import type { ResultBlock } from './tool-result';

type Attachment = Exclude<ResultBlock, { kind: 'text' } | { kind: 'image' }>;

const BOX = 'rounded border border-zinc-200 px-2 py-1 text-xs dark:border-zinc-700';

/** Audio, resource links and embedded resources of a tool result: players, links and attachments, never JSON. */
export function ResultAttachment({ block }: { block: Attachment }) {
  const t = useTranslations('resultAttachments');
  switch (block.kind) {
    case 'audio':
      return (
        // biome-ignore lint/a11y/useMediaCaption: audio returned by a tool comes without captions
        <audio controls src={block.src} data-tool-audio aria-label={t('audio', { type: block.mimeType })} />
      );
    case 'link':
      return (
        <p data-tool-link className={BOX}>
          <span className="text-zinc-500">{t('link')}</span>
          {block.href ? (
            <a
              href={block.href}
              target="_blank"
              rel="noopener noreferrer"
              className="text-blue-600 underline"
            >
              {block.name}
            </a>
          ) : (
            <span>
              {block.name} <code className="break-all">{block.uri === block.name ? '' : block.uri}</code>
            </span>
          )}
          {block.description && <span className="block text-zinc-500">{block.description}</span>}
        </p>
      );
    case 'resource-text':
      return (
        <details data-tool-resource className={BOX}>
          <summary className="cursor-pointer">
            <span className="font-medium">{block.name}</span>{' '}
            <code className="break-all text-zinc-500">{block.uri}</code>
          </summary>
          <pre className="mt-1 max-h-80 overflow-auto whitespace-pre-wrap break-words">{block.text}</pre>
        </details>
      );
    case 'resource-blob':
      return (
        <p data-tool-resource className={BOX}>
          <a
            href={block.href}
            download={block.name}
            type={block.mimeType}
            className="text-blue-600 underline"
          >
            {t('download', { name: block.name })}
          </a>{' '}
          <span className="text-zinc-500">
            ({block.mimeType}, {formatSize(block.bytes)}) <code className="break-all">{block.uri}</code>
          </span>
        </p>
      );
  }
}

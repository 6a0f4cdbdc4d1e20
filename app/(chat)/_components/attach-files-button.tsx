import { Paperclip } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { useRef } from 'react';
import { Tooltip } from '@/app/_components/tooltip';

type Props = { disabled?: boolean; onFiles: (files: File[]) => void };

/** "Attach files": the paperclip button and the hidden file input it opens. */
export function AttachFilesButton({ disabled, onFiles }: Props) {
  const t = useTranslations('attachments');
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={fileInput}
        type="file"
        multiple
        hidden
        data-file-input
        onChange={(e) => {
          onFiles(Array.from(e.target.files ?? []));
          e.target.value = '';
        }}
      />
      <Tooltip label={t('attach')}>
        <button
          type="button"
          aria-label={t('attach')}
          disabled={disabled}
          onClick={() => fileInput.current?.click()}
          className="grid size-10 shrink-0 place-items-center rounded-xl text-lg text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 disabled:opacity-40 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
        >
          <Paperclip aria-hidden className="size-5" />
        </button>
      </Tooltip>
    </>
  );
}

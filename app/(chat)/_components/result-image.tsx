'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { Modal, ModalClose } from '@/app/_components/modal';

/** A tool's image as a thumbnail; activating it opens the full-size image in a modal dialog (Esc closes). */
export function ResultImage({ src, alt }: { src: string; alt: string }) {
  const t = useTranslations('resultImage');
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-label={t('view')}
        className="block cursor-zoom-in rounded border focus-visible:outline-2 focus-visible:outline-blue-600"
      >
        {/* biome-ignore lint/performance/noImgElement: a data: URL image returned by the tool */}
        <img src={src} alt={alt} data-tool-image className="max-h-64 max-w-full rounded" />
      </button>
      {open && (
        <Modal
          title={t('full')}
          titleClassName="sr-only"
          onClose={() => setOpen(false)}
          className="max-h-[95dvh] max-w-[95vw] overflow-auto rounded-lg p-2"
        >
          <div className="flex justify-end">
            <ModalClose
              type="button"
              className="rounded px-2 py-1 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800"
            >
              {t('close')}
            </ModalClose>
          </div>
          {/* biome-ignore lint/performance/noImgElement: the same data: URL, at its natural size */}
          <img
            src={src}
            alt={alt}
            data-tool-image-full
            className="max-w-none"
            style={{ imageRendering: 'auto' }}
          />
        </Modal>
      )}
    </>
  );
}

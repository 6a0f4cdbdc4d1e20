'use client';

import { useRef } from 'react';

/** A tool's image as a thumbnail; activating it opens the full-size image in a modal dialog (Esc closes). */
export function ResultImage({ src, alt }: { src: string; alt: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button
        type="button"
        onClick={() => dialog.current?.showModal()}
        aria-label="View image full size"
        className="block cursor-zoom-in rounded border focus-visible:outline-2 focus-visible:outline-blue-600"
      >
        {/* biome-ignore lint/performance/noImgElement: a data: URL image returned by the tool */}
        <img src={src} alt={alt} data-tool-image className="max-h-64 max-w-full rounded" />
      </button>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes; keyboard users have Esc and the Close button */}
      <dialog
        ref={dialog}
        aria-label="Image full size"
        className="m-auto max-h-[95vh] max-w-[95vw] rounded-lg bg-white p-2 backdrop:bg-black/70 dark:bg-zinc-900"
        onClick={(e) => {
          if (e.target === e.currentTarget) e.currentTarget.close();
        }}
      >
        <div className="flex justify-end">
          <button
            type="button"
            onClick={() => dialog.current?.close()}
            className="rounded px-2 py-1 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800"
          >
            Close
          </button>
        </div>
        {/* biome-ignore lint/performance/noImgElement: the same data: URL, at its natural size */}
        <img
          src={src}
          alt={alt}
          data-tool-image-full
          className="max-w-none"
          style={{ imageRendering: 'auto' }}
        />
      </dialog>
    </>
  );
}

'use client';

import { useState } from 'react';

type Props = { text: string; onRegenerate?: () => void; onEdit?: () => void };

const button =
  'rounded px-1.5 py-0.5 text-xs text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800 dark:hover:bg-zinc-800 dark:hover:text-zinc-200';

/** Copy (every message), Regenerate (the last answer), Edit (the user's messages). */
export function MessageActions({ text, onRegenerate, onEdit }: Props) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="mt-1 flex gap-1 opacity-100 md:opacity-0 md:group-focus-within:opacity-100 md:group-hover:opacity-100">
      <button
        type="button"
        className={button}
        onClick={() => {
          void navigator.clipboard?.writeText(text).then(() => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          });
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
      {onEdit && (
        <button type="button" className={button} onClick={onEdit}>
          Edit
        </button>
      )}
      {onRegenerate && (
        <button type="button" className={button} onClick={onRegenerate}>
          Regenerate
        </button>
      )}
    </div>
  );
}

'use client';

import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import type { MessageMetadata } from '@/lib/schemas/chat';
import { MessageDetails } from './message-details';

type Props = {
  text: string;
  onRegenerate?: () => void;
  onEdit?: () => void;
  /** An answer's metadata: a "Details" button shows its model, tokens and cost. */
  details?: MessageMetadata;
};

const button =
  'rounded px-1.5 py-0.5 text-xs text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800 dark:hover:bg-zinc-800 dark:hover:text-zinc-200';

/** Copy (every message with text), Regenerate (the last answer), Edit (the user's messages), Details (answers). */
export function MessageActions({ text, onRegenerate, onEdit, details }: Props) {
  const [copied, setCopied] = useState(false);
  const [showDetails, setShowDetails] = useState(false);
  const detailsId = useId();
  const t = useTranslations('usage');
  const ta = useTranslations('messageActions');
  return (
    <>
      <div
        className={`mt-1 flex gap-1 ${showDetails ? '' : 'opacity-100 md:opacity-0 md:group-focus-within:opacity-100 md:group-hover:opacity-100'}`}
      >
        {text && (
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
            {copied ? ta('copied') : ta('copy')}
          </button>
        )}
        {onEdit && (
          <button type="button" data-edit-message className={button} onClick={onEdit}>
            {ta('edit')}
          </button>
        )}
        {onRegenerate && (
          <button type="button" className={button} onClick={onRegenerate}>
            {ta('regenerate')}
          </button>
        )}
        {details !== undefined && (
          <button
            type="button"
            className={button}
            aria-expanded={showDetails}
            aria-controls={showDetails ? detailsId : undefined}
            onClick={() => setShowDetails((v) => !v)}
          >
            {t('details')}
          </button>
        )}
      </div>
      {showDetails && details !== undefined && (
        <div id={detailsId}>
          <MessageDetails metadata={details} />
        </div>
      )}
    </>
  );
}

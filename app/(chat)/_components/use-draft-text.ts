'use client';

import { useEffect, useState } from 'react';
import { readDraft, writeDraft } from '@/lib/drafts';

/** The message box's text and caret; the text is kept as the conversation's draft (`draftKey`) until sent. */
export function useDraftText(draftKey: string | undefined) {
  const [text, setTextState] = useState('');
  const [caret, setCaret] = useState(0);

  /** The text, kept as this conversation's draft until sent. */
  function setText(next: string) {
    setTextState(next);
    if (draftKey) writeDraft(draftKey, next);
  }

  // The draft comes back after the page is hydrated (the server cannot know it).
  useEffect(() => {
    if (!draftKey) return;
    const draft = readDraft(draftKey);
    if (draft) {
      setTextState(draft);
      setCaret(draft.length);
    }
  }, [draftKey]);

  return { text, setText, caret, setCaret };
}
